#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// The geometric Jacobian of a frame on a robot (multibody::FrameJacobian), row-major
/// 6 x nv: rows 0-2 map v to the frame's angular velocity, rows 3-5 to its origin's velocity,
/// both in base axes, the form task-space controllers compare with targets in the base.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class Jacobian final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit Jacobian(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of Jacobian.
BlockType JacobianType();

}  // namespace twinblocks::blocks
