#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// Computed-torque control (inverse-dynamics control in joint space, Boschetti & Sinico 2024,
/// "Designing Digital Twins of Robots Using Simscape Multibody", section 5, eq. 30-31; experiment
/// E4 of docs/multibody.md): the motor torque command
///
///   tau_m = diag(1/n) [ (M(q) + diag(n^2 Jm)) a + c(q, qd) + g(q) + f_fr(qd) ],
///   a = qdd_ref + Kp (q_ref - q) + Kd (qd_ref - qd),
///   f_fr(qd) = Fc tanh(qd / friction_velocity) + Fv qd   (all per joint),
///
/// with M, c, g the robot's own model. With an exact model the closed loop becomes
/// e'' + Kd e' + Kp e = 0 for each joint, e = q_ref - q.
///
/// One recursive Newton-Euler pass gives M(q) a + c(q, qd) + g(q) = Rnea(q, qd, a); the
/// reflected rotor inertias, friction and gear ratios are added per joint. The Coulomb term
/// is smoothed by tanh because a sign() that jumps at qd = 0 makes a variable-step solver
/// crawl (and chatter) while a joint rests or reverses; friction_velocity = 0 asks for the
/// exact sign().
///
/// The robot is bound by the compiler (BindRobot) before widths are propagated; port widths
/// and the per-joint parameters are checked against it in DoConfigure. Every joint must be
/// revolute or prismatic (nq = nv), for q_ref - q to be the position error. Nothing
/// allocates after configuration: the scratch is a per-simulator workspace.
class ComputedTorque final : public internal::RobotBlock {
 public:
  /// @throws BlockError naming the parameter: robot missing, a vector parameter empty or not
  ///         finite, a gear ratio of 0, negative Jm, Kp, Kd, Fc, Fv or friction_velocity, or
  ///         friction_compensation neither "on" nor "off".
  explicit ComputedTorque(const Params& params);

 protected:
  /// @throws BlockError "no robot bound"; naming a joint that is not revolute or prismatic;
  ///         naming a per-joint parameter whose length is neither 1 nor nv; naming an input
  ///         whose width is not nv.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct Workspace;

  // As given (1 or nv entries each), then expanded to nv by DoConfigure.
  Eigen::VectorXd n_param_, Jm_param_, Kp_param_, Kd_param_, Fc_param_, Fv_param_;
  Eigen::VectorXd n_;          ///< (nv) gear ratios, motor turns over joint turns
  Eigen::VectorXd reflected_;  ///< (nv) n^2 Jm, kg m^2 (kg for a prismatic joint)
  Eigen::VectorXd Kp_, Kd_;    ///< (nv) 1/s^2, 1/s
  Eigen::VectorXd Fc_, Fv_;    ///< (nv) N m, N m s/rad (link side)
  double friction_velocity_;   ///< rad/s (m/s); 0: exact sign()
  bool friction_on_ = true;
};

/// The registry entry of ComputedTorque.
BlockType ComputedTorqueType();

}  // namespace twinblocks::blocks
