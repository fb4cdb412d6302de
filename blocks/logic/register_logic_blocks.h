#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the logic block types of "Discrete and logic" to `registry`.
void RegisterLogicBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
