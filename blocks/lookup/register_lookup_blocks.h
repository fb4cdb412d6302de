#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the catalog's "Lookup tables" block types to `registry`.
void RegisterLookupBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
