#pragma once

// Numerical inverse kinematics of a serial chain of a kinematic tree: the joint positions that
// put a frame on the chain at a target pose (or position) relative to the chain's base, by
// Levenberg-Marquardt on the weighted pose error, within joint limits, with random restarts.
//
// The chain is the path of the tree from a base body (or the tree's root) out to the body
// that carries the frame; its joints must be revolute or prismatic. Joints off the chain keep
// their values. The solver owns its scratch: Solve allocates nothing.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstdint>
#include <random>
#include <vector>

#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// What to solve for and when to stop.
struct IkOptions {
  /// Only the frame's origin counts; its orientation is free.
  bool position_only = false;
  /// Weights of the pose error [rotation (3, 1/rad); position (3, 1/m)] in the base's axes:
  /// the solver minimises |diag(weights) e|^2. A zero weight frees that component: the
  /// target's rotation about z, say, for a tool symmetric about its axis.
  Vector6d weights = Vector6d::Ones();
  double position_tolerance = 1e-9;  ///< m: success when each weighted-in error is below
  double rotation_tolerance = 1e-9;  ///< rad
  int max_iterations = 100;          ///< per attempt
  int restarts = 30;                 ///< attempts from random configurations after the first
  std::uint64_t seed = 1;            ///< of the restarts' configurations (reproducible)
};

/// How a solve ended.
struct IkResult {
  bool success = false;
  double position_error = 0.0;  ///< m, |p_target - p| over the weighted-in axes
  double rotation_error = 0.0;  ///< rad, the angle of R_target R^T over the weighted-in axes
  int iterations = 0;           ///< over all attempts
  int attempts = 0;             ///< 1 + the restarts used
};

class ChainIk {
 public:
  /// The chain from `base_body` (-1: the tree's root) to `tip_body`, whose frame of interest
  /// is X_BF in the tip body. `lower`, `upper` (nq of the tree; +-infinity for none) bound the
  /// chain's joints.
  /// @throws std::invalid_argument when base_body is not on the path from the root to
  ///         tip_body (the chain does not connect them), a joint on the chain is neither
  ///         revolute nor prismatic, the limits have the wrong size, are NaN or lower > upper.
  ChainIk(const KinematicTree& tree, int tip_body, const Pose& X_BF, const Eigen::VectorXd& lower,
          const Eigen::VectorXd& upper, int base_body = -1);

  int nq() const { return nq_; }                                ///< of the whole tree
  int num_joints() const { return num_joints_; }                ///< on the chain
  const std::vector<int>& q_index() const { return q_index_; }  ///< chain joint -> q entry

  /// X_base,F(q): the frame's pose relative to the base body (or the root).
  Pose CalcPose(const Eigen::Ref<const Eigen::VectorXd>& q);

  /// Joint positions q (nq) that put the frame at `target` (relative to the base), starting
  /// from q_start (warm start: the current configuration). On failure, q holds the best
  /// configuration found. Stopping rule, per attempt: success as soon as the weighted-in
  /// position and rotation errors are within the tolerances; failure after max_iterations,
  /// when the damped step no longer changes q, or when an accepted step and the linear model
  /// both gain less than 1e-6 of the remaining cost (a local minimum, or a target out of reach).
  /// Then another attempt starts from a uniformly random configuration within the limits
  /// ([-pi, pi] for an unbounded revolute joint, [-1, 1] m for an unbounded prismatic one).
  /// @pre q_start and q have nq entries; q may alias q_start.
  IkResult Solve(const Pose& target, const Eigen::Ref<const Eigen::VectorXd>& q_start,
                 const IkOptions& options, Eigen::Ref<Eigen::VectorXd> q);

 private:
  // One chain joint: its frame in the previous one's moving frame, axis, type, q entry.
  struct ChainJoint {
    Pose X_PJ;  ///< joint frame in the parent body (or in the base)
    Eigen::Vector3d axis;
    bool revolute = true;
    int q = 0;
    double lower = 0.0, upper = 0.0;
    /// Revolute with a whole turn between its limits: moves freely, then is brought back
    /// within them by whole turns (the same pose), so a limit never stops it.
    bool wraps = false;
  };

  /// Poses the chain at q_chain, fills the weighted error e_w [rotation; position] and the
  /// weighted Jacobian J_w (6 x joints), and the unweighted errors over the weighted-in axes
  /// (m, rad); returns the cost 1/2 |e_w|^2.
  double Evaluate(const Eigen::VectorXd& q_chain, const Pose& target, Vector6d* e_w,
                  Eigen::Matrix<double, 6, Eigen::Dynamic>* J_w, double* pos_err, double* rot_err);
  bool Converged(const IkOptions& options, double pos_err, double rot_err) const;
  /// The damped step (J^T J + mu I) h = J^T e into step_, from J_w_, e_w_ and gradient_.
  void SolveStep(double mu);
  /// One Levenberg-Marquardt attempt from q_chain_; counts iterations, gives the final cost.
  bool Attempt(const Pose& target, const IkOptions& options, int* iterations, double* cost);
  void RandomStart(std::mt19937_64* rng);
  /// q for chain joint k within its limits: wrapped by whole turns if it wraps, else clamped.
  double Limited(int k, double q) const;

  int nq_ = 0;
  int num_joints_ = 0;
  std::vector<ChainJoint> joints_;  ///< base to tip
  std::vector<int> q_index_;
  Pose X_tipF_;
  // Of the current solve: weights (zero for what is free) and which axes count (0 or 1).
  bool rotation_active_ = true;
  Eigen::Vector3d rotation_weight_, position_weight_, rotation_mask_, position_mask_;

  // Scratch (sized once).
  Eigen::VectorXd q_chain_, q_trial_, q_best_, step_, gradient_;  ///< (joints)
  Eigen::Matrix<double, 6, Eigen::Dynamic> J_w_, J_trial_;        ///< (6 x joints)
  Eigen::Matrix<double, 6, Eigen::Dynamic> J_free_;  ///< J_w_ less the joints held on a limit
  Vector6d e_w_, e_trial_;
  std::vector<Eigen::Vector3d> axis_W_, origin_W_;  ///< joint axes and origins in the base
  Eigen::MatrixXd normal_;  ///< J_w^T J_w + mu I (joints <= 6) or J_w J_w^T + mu I (6 x 6)
  Eigen::VectorXd rhs_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

}  // namespace twinblocks::multibody
