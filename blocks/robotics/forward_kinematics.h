#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// The pose of a frame on a robot, in the robot's base, from the joint positions: the
/// forward kinematics a controller or a display needs without simulating the arm.
/// Output `rotation` is row-major so that it reads like the matrix written out.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class ForwardKinematics final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit ForwardKinematics(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of ForwardKinematics.
BlockType ForwardKinematicsType();

}  // namespace twinblocks::blocks
