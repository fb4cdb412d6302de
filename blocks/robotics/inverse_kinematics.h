#pragma once

#include <Eigen/Core>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::blocks {

/// Closed-form inverse kinematics of a 6R arm with a spherical wrist (Pieper's decoupling):
/// the wrist centre fixes joints 1-3, the orientation then fixes joints 4-6. Closed form
/// rather than iterative because a digital twin driven by task-space paths calls it every
/// step, and because the eight solution branches are then explicit: an iterative solver
/// picks whichever branch it converges to, and can jump between them.
///
/// The arm class is the anthropomorphic one of industrial arms (PUMA, Staeubli, KUKA, ABB
/// and the reference arm): axis 2 perpendicular to axis 1, axis 3 parallel to axis 2, any
/// shoulder and elbow offsets, a spherical wrist with any twists. The constructor checks the
/// table and says which condition fails.
///
/// A standard DH table is turned into the equivalent modified one (the standard chain
/// Rz Dz Dx Rx regrouped as Rx Dx Rz Dz, shifted by one row, with the last row's Dx Rx as a
/// fixed flange transform), so one solver serves both conventions.
///
/// Outputs are continuous in time: each angle is the branch's angle shifted by 2 pi k to be
/// nearest the output of the last major step (dwork), so that a joint turning through pi
/// does not jump by 2 pi. At singular configurations (wrist centre on axis 1, axes 4 and 6
/// aligned) the free angle keeps its last value.
///
/// With `derivatives` on, the block also maps the tool's velocity and acceleration to exact
/// joint rates, so that a motion-driven arm follows a Cartesian path without the lag and
/// noise of differentiating q: qd = J(q)^-1 [w; v] and qdd = J(q)^-1 ([alpha; a] - Jdot qd),
/// with J the geometric Jacobian of the tool point (multibody::FrameJacobian) and Jdot qd the
/// tool's acceleration at qdd = 0, from the recursive Newton-Euler pass of a tree built
/// from the (modified) table. Where |det J| is tiny the rates keep their last values.
///
/// Storage: dwork (6, or 18 with derivatives) the last output q, then qd and qdd.
class InverseKinematics final : public Block {
 public:
  /// @throws BlockError naming the parameter: dh not 6 x 4, an arm outside the class above
  ///         (no spherical wrist, axes 1-3 not anthropomorphic), branch entries not +-1,
  ///         tool or q_init of the wrong size.
  explicit InverseKinematics(const Params& params);

 protected:
  /// Every width is fixed (and checked by Configure); nothing to do.
  void DoConfigure(const std::vector<int>& input_widths) override {}
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  /// The tree's data and the Jacobian's factorization (derivatives on), else none.
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct RateWorkspace;

  /// Joint angles q (6) for the tool pose X_0T (in the base), nearest `prev`. Returns false
  /// (and leaves q unspecified) when the pose is out of reach.
  bool Solve(const multibody::Pose& X_0T, const double* prev, double* q) const;

  /// Joint rates at q (6, rad) for the tool's velocity V_T = [w; v] (6, rad/s; m/s) and
  /// acceleration A_T = [alpha; a] (6, rad/s^2; m/s^2), base axes: qd (6, rad/s) and qdd
  /// (6, rad/s^2). Returns false (and leaves qd, qdd unspecified) when J(q) is singular.
  bool CalcRates(RateWorkspace& ws, const double* q, const double* V_T, const double* A_T,
                 double* qd, double* qdd) const;

  // The arm as a modified table: alpha_[k], a_[k] are alpha_{k}, a_{k} (k = 0..5, the
  // twist and length before joint k+1), d_[k] and offset_[k] those of joint k+1. rad, m.
  std::array<double, 6> alpha_{}, a_{}, d_{}, offset_{};
  multibody::Pose X_0B_;  ///< frame of axis 1 in the base: Rx(alpha_0) Dx(a_0)
  multibody::Pose X_6T_;  ///< tool frame in modified frame 6 (flange and tool point)
  // Constants of the position solution (see Solve).
  double sigma_ = 1.0;          ///< cos alpha_2: +1 (axes 2, 3 parallel) or -1 (antiparallel)
  double ux_ = 0.0, uy_ = 0.0;  ///< wrist centre in frame 3, in-plane part (m)
  double h_ = 0.0;              ///< offset of the arm plane along axis 2 (m)
  double psi_ = 0.0;            ///< atan2(uy, ux) (rad)
  double forearm_ = 0.0;        ///< sqrt(ux^2 + uy^2) (m)
  int shoulder_ = 1, elbow_ = 1, wrist_ = 1;
  std::array<double, 6> q_init_{};

  bool derivatives_ = false;
  /// The arm as a tree from the modified table above, massless and without gravity: body 5
  /// is modified frame 6, so the tool point is at X_6T_ in it. Null unless derivatives on.
  std::unique_ptr<const multibody::KinematicTree> tree_;
  double singular_det_ = 0.0;  ///< |det J| at or below this counts as singular (m^3)
};

/// The registry entry of InverseKinematics.
BlockType InverseKinematicsType();

}  // namespace twinblocks::blocks
