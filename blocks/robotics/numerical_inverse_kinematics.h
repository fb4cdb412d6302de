#pragma once

#include <memory>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"
#include "physics/multibody/chain_ik.h"

namespace twinblocks::blocks {

/// Inverse kinematics of any serial chain of a robot, by Levenberg-Marquardt (ChainIk): the
/// joint positions that put `frame` at the target pose (or position) in the robot's base,
/// within the joints' limits. For arms without a closed form (7-DOF arms, SCARAs, fingers)
/// and for targets that only fix some axes (weights). Each evaluation starts from the output
/// of the last major step (q_init at first), so a target that moves smoothly is tracked in a
/// few iterations and the solution stays on its branch; random restarts follow a failure.
///
/// Storage: dwork (nq) the output of the last major step. The solver's scratch is a
/// per-simulator workspace, so evaluations allocate nothing.
class NumericalInverseKinematics final : public internal::RobotBlock {
 public:
  /// @throws BlockError naming the parameter: weights not 6 finite values >= 0 (or all zero
  ///         on the targeted axes), tolerances not > 0, max_iterations < 1, restarts < 0.
  explicit NumericalInverseKinematics(const Params& params);

  /// The bound robot, its limits replaced by the block's (for the Python kinematics API).
  const multibody::RobotModel& robot() const { return robot_; }
  const multibody::IkOptions& options() const { return options_; }
  const Eigen::VectorXd& q_init() const { return q_init_; }

 protected:
  /// Reads the limits (the robot's unless given) and q_init against the robot's nq.
  /// @throws BlockError naming `lower`, `upper` or `q_init` (wrong size, lower > upper, NaN),
  ///         or `frame` when no joint moves it.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct SolverWorkspace;

  multibody::IkOptions options_;
  Eigen::VectorXd lower_param_, upper_param_, q_init_param_;  ///< as given (may be empty)
  Eigen::VectorXd q_init_;                                    ///< (nq) once configured
};

/// The registry entry of NumericalInverseKinematics.
BlockType NumericalInverseKinematicsType();

}  // namespace twinblocks::blocks
