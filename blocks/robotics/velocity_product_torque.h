#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// The Coriolis and centrifugal joint forces C(q, qd) qd, without gravity: the difference
/// of two Newton-Euler passes (with qd, and at rest), since the tree's gravity is fixed.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class VelocityProductTorque final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit VelocityProductTorque(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of VelocityProductTorque.
BlockType VelocityProductTorqueType();

}  // namespace twinblocks::blocks
