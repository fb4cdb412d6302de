#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// Joint forces for given positions, velocities and accelerations, gravity included
/// (recursive Newton-Euler): the feedforward of computed-torque control.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class InverseDynamics final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit InverseDynamics(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of InverseDynamics.
BlockType InverseDynamicsType();

}  // namespace twinblocks::blocks
