#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the grasp blocks (GraspAnalysis) to `r`.
void RegisterGraspBlocks(BlockRegistry& r);

}  // namespace twinblocks::blocks
