#pragma once

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The registry entry of DiscreteFilter: a DiscreteTransferFunction whose num and den are
/// written in ascending powers of z^-1 (discrete_transfer_function.h).
BlockType DiscreteFilterType();

}  // namespace twinblocks::blocks
