#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the catalog's "Discontinuities" block types (RateLimiter, Backlash, Quantizer, Relay,
/// HitCrossing, CoulombViscousFriction) to `registry`.
void RegisterNonlinearBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
