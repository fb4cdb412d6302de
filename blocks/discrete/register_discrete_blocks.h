#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the discrete block types of "Discrete and logic" to `registry`.
void RegisterDiscreteBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
