#include "blocks/multibody/register_multibody_blocks.h"

namespace twinblocks::blocks {

void RegisterMultibodyBlocks(BlockRegistry& r) {}

}  // namespace twinblocks::blocks
