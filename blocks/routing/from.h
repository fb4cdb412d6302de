#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of From: a virtual block the compiler replaces by a connection from
/// the signal entering the Goto with the same tag. It never runs, so there is no class.
BlockType FromType();

}  // namespace twinblocks::blocks
