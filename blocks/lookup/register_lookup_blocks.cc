#include "blocks/lookup/register_lookup_blocks.h"

#include "blocks/lookup/interpolation_using_prelookup.h"
#include "blocks/lookup/lookup_table.h"
#include "blocks/lookup/lookup_table_2d.h"
#include "blocks/lookup/lookup_table_nd.h"
#include "blocks/lookup/prelookup.h"

namespace twinblocks::blocks {

void RegisterLookupBlocks(BlockRegistry& registry) {
  registry.Add(LookupTableType());
  registry.Add(LookupTable2DType());
  registry.Add(LookupTableNDType());
  registry.Add(PrelookupType());
  registry.Add(InterpolationUsingPrelookupType());
}

}  // namespace twinblocks::blocks
