#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// The joint forces that hold the robot still against gravity, g(q): Rnea with zero
/// velocity and acceleration; gravity compensation.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class GravityTorque final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit GravityTorque(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of GravityTorque.
BlockType GravityTorqueType();

}  // namespace twinblocks::blocks
