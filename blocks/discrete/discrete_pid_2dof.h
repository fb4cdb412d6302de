#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of DiscretePID2DOF: the DiscretePID block (discrete_pid.h) with inputs r
/// and y and set-point weights b and c.
BlockType DiscretePid2DofType();

}  // namespace twinblocks::blocks
