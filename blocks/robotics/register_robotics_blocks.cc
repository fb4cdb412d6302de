#include "blocks/robotics/register_robotics_blocks.h"

namespace twinblocks::blocks {

void RegisterRoboticsBlocks(BlockRegistry& r) {}

}  // namespace twinblocks::blocks
