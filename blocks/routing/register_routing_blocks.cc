#include "blocks/routing/register_routing_blocks.h"

#include "blocks/routing/bus_creator.h"
#include "blocks/routing/bus_selector.h"
#include "blocks/routing/demux.h"
#include "blocks/routing/from.h"
#include "blocks/routing/goto.h"
#include "blocks/routing/multiport_switch.h"
#include "blocks/routing/mux.h"
#include "blocks/routing/selector.h"
#include "blocks/routing/terminator.h"

namespace twinblocks::blocks {

void RegisterRoutingBlocks(BlockRegistry& registry) {
  registry.Add(MuxType());
  registry.Add(DemuxType());
  registry.Add(SelectorType());
  registry.Add(GotoType());
  registry.Add(FromType());
  registry.Add(TerminatorType());
  registry.Add(MultiportSwitchType());
  registry.Add(BusCreatorType());
  registry.Add(BusSelectorType());
}

}  // namespace twinblocks::blocks
