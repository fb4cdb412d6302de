#pragma once

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Ends the run, successfully, at the first major step where an element of its input is
/// non-zero (Block::RequestStop): that step's row is the run's last.
class StopSimulation final : public Block {
 public:
  explicit StopSimulation(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of StopSimulation.
BlockType StopSimulationType();

}  // namespace twinblocks::blocks
