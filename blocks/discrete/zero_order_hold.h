#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u sampled at t = offset + k Ts and held until the next hit. The hold needs no state:
/// a discrete block's output stays in the signal buffer between its hits.
class ZeroOrderHold final : public Block {
 public:
  /// @throws BlockError for a bad Ts/offset.
  explicit ZeroOrderHold(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of ZeroOrderHold.
BlockType ZeroOrderHoldType();

}  // namespace twinblocks::blocks
