#include "blocks/discrete/register_discrete_blocks.h"

#include "blocks/discrete/delay.h"
#include "blocks/discrete/discrete_pid.h"
#include "blocks/discrete/unit_delay.h"
#include "blocks/discrete/zero_order_hold.h"

namespace twinblocks::blocks {

void RegisterDiscreteBlocks(BlockRegistry& registry) {
  registry.Add(UnitDelayType());
  registry.Add(DelayType());
  registry.Add(ZeroOrderHoldType());
  registry.Add(DiscretePidType());
}

}  // namespace twinblocks::blocks
