#include "blocks/logic/register_logic_blocks.h"

#include "blocks/logic/compare_to_constant.h"
#include "blocks/logic/logical_operator.h"
#include "blocks/logic/relational_operator.h"
#include "blocks/logic/switch.h"

namespace twinblocks::blocks {

void RegisterLogicBlocks(BlockRegistry& registry) {
  registry.Add(RelationalOperatorType());
  registry.Add(CompareToConstantType());
  registry.Add(LogicalOperatorType());
  registry.Add(SwitchType());
}

}  // namespace twinblocks::blocks
