#pragma once

#include <memory>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/grasp/grasp_monitor.h"

namespace twinblocks::blocks {

/// The grasp measures of one object along a run (physics/grasp/grasp_monitor.h), from the
/// contacts acting on it as SpatialContactForce measures them. A discrete block in the
/// Simulink sense: with a sample time it evaluates at its hits and holds its outputs in
/// between, which is how its cost is chosen (an epsilon costs tens of microseconds, a step of
/// a grasp simulation a few); with Ts = -1 it takes its input's rate.
class GraspAnalysis final : public Block {
 public:
  /// @throws BlockError naming the parameter: mu < 0, or 0 with friction; torsional_mu < 0;
  ///         edges outside [3, 64]; torque_length or threshold < 0; a bad Ts or offset.
  explicit GraspAnalysis(const Params& params);

 protected:
  /// contacts must be 9 k wide, 2 <= k <= 64; center 3.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
  /// The monitor, sized for the block's k contacts.
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  grasp::GraspMonitorOptions options_;
  int num_contacts_ = 0;
};

/// The registry entry of GraspAnalysis.
BlockType GraspAnalysisType();

}  // namespace twinblocks::blocks
