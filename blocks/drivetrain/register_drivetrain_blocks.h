#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the rotational-network blocks (references, inertias, gears, friction, springs,
/// torque sources, sensors).
void RegisterDrivetrainBlocks(BlockRegistry& r);

}  // namespace twinblocks::blocks
