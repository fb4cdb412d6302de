#include "blocks/discrete/register_discrete_blocks.h"

#include "blocks/discrete/delay.h"
#include "blocks/discrete/discrete_derivative.h"
#include "blocks/discrete/discrete_filter.h"
#include "blocks/discrete/discrete_integrator.h"
#include "blocks/discrete/discrete_pid.h"
#include "blocks/discrete/discrete_pid_2dof.h"
#include "blocks/discrete/discrete_state_space.h"
#include "blocks/discrete/discrete_transfer_function.h"
#include "blocks/discrete/unit_delay.h"
#include "blocks/discrete/zero_order_hold.h"

namespace twinblocks::blocks {

void RegisterDiscreteBlocks(BlockRegistry& registry) {
  registry.Add(UnitDelayType());
  registry.Add(DelayType());
  registry.Add(ZeroOrderHoldType());
  registry.Add(DiscretePidType());
  registry.Add(DiscretePid2DofType());
  registry.Add(DiscreteIntegratorType());
  registry.Add(DiscreteTransferFunctionType());
  registry.Add(DiscreteFilterType());
  registry.Add(DiscreteStateSpaceType());
  registry.Add(DiscreteDerivativeType());
}

}  // namespace twinblocks::blocks
