#include "blocks/delay/register_delay_blocks.h"

#include "blocks/delay/memory.h"
#include "blocks/delay/transport_delay.h"
#include "blocks/delay/variable_transport_delay.h"

namespace twinblocks::blocks {

void RegisterDelayBlocks(BlockRegistry& registry) {
  registry.Add(TransportDelayType());
  registry.Add(VariableTransportDelayType());
  registry.Add(MemoryType());
}

}  // namespace twinblocks::blocks
