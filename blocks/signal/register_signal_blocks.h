#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the catalog's "Sources" and "Math and continuous" block types to `registry`.
void RegisterSignalBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
