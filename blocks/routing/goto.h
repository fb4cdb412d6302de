#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of Goto: a virtual block the compiler replaces by connections to the
/// From blocks with the same tag. It never runs, so there is no class.
BlockType GotoType();

}  // namespace twinblocks::blocks
