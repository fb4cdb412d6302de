#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of PID2DOF: the PID block (pid.h) with inputs r and y and set-point
/// weights b and c.
BlockType Pid2DofType();

}  // namespace twinblocks::blocks
