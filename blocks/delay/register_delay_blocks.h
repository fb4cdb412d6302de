#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the catalog's "Delays" block types (TransportDelay, VariableTransportDelay, Memory)
/// to `registry`.
void RegisterDelayBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
