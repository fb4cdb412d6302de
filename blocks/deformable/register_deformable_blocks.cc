#include "blocks/deformable/register_deformable_blocks.h"

#include "blocks/deformable/deformable_body.h"

namespace twinblocks::blocks {

void RegisterDeformableBlocks(BlockRegistry& r) { r.Add(DeformableBodyType()); }

}  // namespace twinblocks::blocks
