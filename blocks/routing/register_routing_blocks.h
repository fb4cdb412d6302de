#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the catalog's "Routing and structure" block types to `registry`.
void RegisterRoutingBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
