#pragma once

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Ends a signal that is not used, so that unconnected outputs are deliberate.
class Terminator final : public Block {
 public:
  explicit Terminator(const Params& params);
};

/// The registry entry of Terminator.
BlockType TerminatorType();

}  // namespace twinblocks::blocks
