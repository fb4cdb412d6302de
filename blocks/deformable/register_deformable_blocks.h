#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the deformable-body blocks (DeformableBody) to `r`.
void RegisterDeformableBlocks(BlockRegistry& r);

}  // namespace twinblocks::blocks
