#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of UnitDelay: y[k] = u[k-1], built as a Delay of one sample.
BlockType UnitDelayType();

}  // namespace twinblocks::blocks
