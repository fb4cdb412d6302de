#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the frame-network blocks (World, Solid, RigidTransform, joints, sensors, forces).
void RegisterMultibodyBlocks(BlockRegistry& r);

}  // namespace twinblocks::blocks
