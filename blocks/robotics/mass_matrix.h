#pragma once

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks {

/// The joint-space mass matrix M(q) (composite-rigid-body algorithm), row-major nv x nv,
/// for computed-torque control and for operational-space quantities.
/// Port widths are fixed by the robot the compiler binds (BindRobot) before widths are
/// propagated; scratch lives in a per-simulator workspace.
class MassMatrix final : public internal::RobotBlock {
 public:
  /// @throws BlockError when a parameter is empty.
  explicit MassMatrix(const Params& params);

 protected:
  /// @throws BlockError "no robot bound", or naming an input whose width does not fit the
  /// robot.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of MassMatrix.
BlockType MassMatrixType();

}  // namespace twinblocks::blocks
