#pragma once

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/three_region_block.h"

namespace twinblocks::blocks {

/// y = min(max(u, lower), upper) element-wise, with the region as a mode and zero crossings
/// u - upper and u - lower (see ThreeRegionBlock).
class Saturation final : public internal::ThreeRegionBlock {
 public:
  /// @throws BlockError when lower > upper or the two disagree in width.
  explicit Saturation(const Params& params);
};

/// The registry entry of Saturation.
BlockType SaturationType();

}  // namespace twinblocks::blocks
