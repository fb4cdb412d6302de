#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the math functions (to "Math and continuous") and the "Matrix operations" block types
/// to `registry`.
void RegisterMathBlocks(BlockRegistry& registry);

}  // namespace twinblocks::blocks
