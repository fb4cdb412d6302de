#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u1 x u2 for 3-vectors.
class CrossProduct final : public Block {
 public:
  explicit CrossProduct(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of CrossProduct.
BlockType CrossProductType();

}  // namespace twinblocks::blocks
