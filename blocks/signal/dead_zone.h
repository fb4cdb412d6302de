#pragma once

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/three_region_block.h"

namespace twinblocks::blocks {

/// y = u - start below start, 0 inside [start, end], u - end above end, element-wise, with
/// the region as a mode and zero crossings u - end and u - start (see ThreeRegionBlock).
class DeadZone final : public internal::ThreeRegionBlock {
 public:
  /// @throws BlockError when start > end or the two disagree in width.
  explicit DeadZone(const Params& params);
};

/// The registry entry of DeadZone.
BlockType DeadZoneType();

}  // namespace twinblocks::blocks
