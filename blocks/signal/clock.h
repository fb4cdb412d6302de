#pragma once

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// t: the simulation time, s.
class Clock final : public Block {
 public:
  explicit Clock(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of Clock.
BlockType ClockType();

}  // namespace twinblocks::blocks
