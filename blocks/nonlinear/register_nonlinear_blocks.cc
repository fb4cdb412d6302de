#include "blocks/nonlinear/register_nonlinear_blocks.h"

#include "blocks/nonlinear/backlash.h"
#include "blocks/nonlinear/coulomb_viscous_friction.h"
#include "blocks/nonlinear/hit_crossing.h"
#include "blocks/nonlinear/quantizer.h"
#include "blocks/nonlinear/rate_limiter.h"
#include "blocks/nonlinear/relay.h"

namespace twinblocks::blocks {

void RegisterNonlinearBlocks(BlockRegistry& registry) {
  registry.Add(RateLimiterType());
  registry.Add(BacklashType());
  registry.Add(QuantizerType());
  registry.Add(RelayType());
  registry.Add(HitCrossingType());
  registry.Add(CoulombViscousFrictionType());
}

}  // namespace twinblocks::blocks
