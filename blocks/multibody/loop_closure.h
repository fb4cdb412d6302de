#pragma once

// Closed kinematic loops on a tree (docs/loops.md): the stacked constraints of every cut joint
// (loop_constraint.h), the multipliers that keep them, and the projections that put q and v
// back on them. Free functions of (tree, loops, tree data, loop data) like algorithms.h;
// LoopClosureData holds every workspace, allocated once, so that nothing allocates per call.
//
// Redundant constraints (a planar four-bar of spatial revolute joints locks the same
// out-of-plane motions twice) make G rank-deficient: every solve goes through the symmetric
// positive semi-definite matrix K = G_m W^-1 G_m^T, factored with a pivoted LDL^T whose pivots
// below kRankTolerance times the largest are taken as zero (a minimum-norm pseudo-inverse in
// the directions that are there). Pivoted LDL^T of a semi-definite matrix is pivoted Cholesky,
// which reveals the rank in practice; it never allocates once sized.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "blocks/multibody/detail/tendon_arms.h"
#include "physics/multibody/tree_cholesky.h"
#include "blocks/multibody/loop_constraint.h"
#include "blocks/multibody/mechanism_model.h"
#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::multibody {

/// Pivots of K below this times the largest are treated as zero (dependent constraints).
inline constexpr double kRankTolerance = 1e-10;

/// The metric in which corrections and constraint forces are measured.
enum class LoopMetric {
  kMass,      ///< M(q): constraint forces, and projections that least change kinetic energy
  kIdentity,  ///< plain coordinates: assembly moves the adjustable targets as little as it can
};

/// Every workspace the loop functions use, sized from a tree, the loops' rows and the number of
/// coordinates the constraints may move. Vectors give their sizes.
///
/// Joint couplings (JointCoupler) are rows of the same system after the loops' rows: the data
/// keeps them so that every function below includes their rows without another argument.
/// Their Jacobian rows are constant and their velocity-product terms zero; only their values
/// need q (CalcCouplingPositions, which ProjectPositions calls).
///
/// Rigid tendons driven by their displacement (Tendon) are rows after the couplings': they
/// change with time, l(q) = s(t), so they hold G v = rate (their sd) rather than G v = 0, and
/// their acceleration terms hold -sdd. Their commands are set by whoever runs the mechanism
/// (tendon_target) before each use; their rows, like the couplings', need q
/// (CalcCouplingPositions), and their velocity terms q and v (CalcTendonVelocityTerms).
struct LoopClosureData {
  /// `movable`: the coordinates the constraints may move (ascending), those of every
  /// FactorLoopSystem and projection made with this data.
  LoopClosureData(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                  const std::vector<int>& movable, const std::vector<JointCoupling>& couplings = {},
                  const std::vector<MechanismTendon>& tendons = {});

  std::vector<JointCoupling> couplings;  ///< rows after the loops' (mechanism_model.h)
  std::vector<MechanismTendon> tendons;  ///< every tendon; those with a row, after couplings'
  internal::TendonArms arms;             ///< the tendons' moment arms
  /// Per tendon: its command [s, sd, sdd] (m, m/s, m/s^2, or rad for dimensionless arms).
  std::vector<Eigen::Vector3d> tendon_target;
  Eigen::VectorXd rate;  ///< m: the target of G v (a tendon row's sd, zero for the others)

  std::vector<Vector6d> A;            ///< per body: spatial acceleration (CalcSpatialAccelerations)
  Eigen::MatrixXd J_F, J_B;           ///< 6 x nv: frame Jacobians of one loop's two sides
  Eigen::MatrixXd G;                  ///< m x nv constraint Jacobian
  Eigen::VectorXd phi;                ///< m: constraint values (m; rad-like for rotations)
  Eigen::VectorXd bias;               ///< m: phi_ddot at qdd = 0, i.e. G_dot v
  std::vector<LoopRows> T;            ///< per loop: rows x 6 (loop_constraint.h)
  std::vector<Pose> X_WB;             ///< per loop: its frame B in W
  std::vector<Eigen::Vector3d> p_WF;  ///< per loop: its frame F's origin in W

  Eigen::MatrixXd Gm;  ///< m x nm: G's movable columns
  /// The metric W on the movable coordinates: M's rows and columns there (kMass), factored
  /// along the tree, or the identity.
  TreeCholesky mass_factor;
  Eigen::MatrixXd Y;  ///< nm x m: W^-1 Gm^T, when y_current (LoopY)
  Eigen::MatrixXd Z;  ///< nm x m: L^-T Gm^T in the mass metric, W = L^T L
  /// Per row of G: the first and last movable coordinate where Z's column may be nonzero.
  std::vector<int> z_first, z_last;
  bool y_current = false;
  Eigen::MatrixXd K;  ///< m x m: Gm Y
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  Eigen::VectorXd lambda;  ///< m: multipliers (N, N m) or correction coefficients
  Eigen::VectorXd dm;      ///< nm: a correction of the movable coordinates
  Eigen::VectorXd dv;      ///< nv: the same, in the tree's velocity coordinates
};

/// The couplings' rows of phi at q: q_A - ratio q_B - offset; and the rigid tendons' rows of
/// phi (l(q) - s), G (R(q)) and rate (sd).
void CalcCouplingPositions(const Eigen::Ref<const Eigen::VectorXd>& q, LoopClosureData* ld);

/// The rigid tendons' rows of G (R(q)), rate (sd) and bias (sum_j r_j'(q_j) v_j^2 - sdd), without
/// their lengths: what the constrained accelerations need.
void CalcTendonVelocityTerms(const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& v, LoopClosureData* ld);

/// phi, G and the loops' T at data.X_WB (after ForwardKinematics(tree, data, q)). The
/// couplings' G rows are written too; their phi rows need CalcCouplingPositions.
void CalcLoopPositions(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                       const KinematicTreeData& data, LoopClosureData* ld);

/// As CalcLoopPositions, plus ld->bias = G_dot v from the velocity-product accelerations.
/// @pre data.X_WB, X_PB and V at (q, v) (ForwardKinematics(tree, data, q, v)).
void CalcLoopVelocityTerms(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                           const KinematicTreeData& data, LoopClosureData* ld);

/// Factors K = G_m W^-1 G_m^T for the `movable` velocity coordinates (ld->G must be current);
/// the mass metric runs Crba on `data` at q.
void FactorLoopSystem(const KinematicTree& tree, const std::vector<int>& movable, LoopMetric metric,
                      const Eigen::Ref<const Eigen::VectorXd>& q, KinematicTreeData* data,
                      LoopClosureData* ld);

/// Y = W^-1 G_m^T of the last FactorLoopSystem (computed on the first call after it).
const Eigen::MatrixXd& LoopY(LoopClosureData* ld);

/// ld->dm = W^-1 G_m^T ld->lambda: the motion of the multipliers, after FactorLoopSystem.
void CalcLoopCorrection(LoopClosureData* ld);

/// ld->lambda = K^+ rhs (minimum norm in the dependent directions), after FactorLoopSystem.
void SolveLoopSystem(const Eigen::Ref<const Eigen::VectorXd>& rhs, LoopClosureData* ld);

/// The wrench loop `k`'s multipliers (ld->lambda) apply to its frame F: [torque; force] (N m;
/// N) at F's origin, in W. Its frame B receives the opposite.
Vector6d LoopWrenchW(const LoopConstraint& loop, const LoopClosureData& ld, int k);

/// q <- q (+) dv: moves the configuration by velocity-coordinate increments (nv), turning
/// quaternions by the rotation vector their joint's angular velocity would give.
void IntegrateConfiguration(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& dv,
                            Eigen::Ref<Eigen::VectorXd> q);

/// Gauss-Newton on phi(q) = 0, moving only the `movable` coordinates, each step the
/// minimum-norm one in the metric. Stops when max |phi| <= tol or after max_iterations.
/// @returns the final max |phi|.
double ProjectPositions(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                        const std::vector<int>& movable, LoopMetric metric, double tol,
                        int max_iterations, KinematicTreeData* data, LoopClosureData* ld,
                        Eigen::Ref<Eigen::VectorXd> q);

/// v <- v - W^-1 G^T K^+ (G v - rate) on the movable coordinates: the closest velocities (in the
/// metric) with G v = rate. @returns max |G v - rate| before the projection.
double ProjectVelocities(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                         const std::vector<int>& movable, LoopMetric metric,
                         const Eigen::Ref<const Eigen::VectorXd>& q, KinematicTreeData* data,
                         LoopClosureData* ld, Eigen::Ref<Eigen::VectorXd> v);

/// What owns row `row` of the stacked constraints, in the user's words, for messages: the
/// loop's cut joint or the coupler, and the element BuildMechanism was given for it.
struct ConstraintRowOwner {
  int element = -1;
  bool is_coupling = false;  ///< a coupling's or a tendon's row
  /// "the kinematic loop closed by joint 'w' (through 'a', 'b')", or "the coupling 'c' of
  /// joints 'a' and 'b'"
  std::string description;
};
ConstraintRowOwner DescribeConstraintRow(const MechanismModel& m, Eigen::Index row);

}  // namespace twinblocks::multibody
