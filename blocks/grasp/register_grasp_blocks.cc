#include "blocks/grasp/register_grasp_blocks.h"

#include "blocks/grasp/grasp_analysis.h"

namespace twinblocks::blocks {

void RegisterGraspBlocks(BlockRegistry& r) { r.Add(GraspAnalysisType()); }

}  // namespace twinblocks::blocks
