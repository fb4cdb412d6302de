#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds the robotics blocks (trajectories, kinematics, inverse dynamics, control) to `r`.
void RegisterRoboticsBlocks(BlockRegistry& r);

}  // namespace twinblocks::blocks
