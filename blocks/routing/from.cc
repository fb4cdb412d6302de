#include "blocks/routing/from.h"

namespace twinblocks::blocks {

BlockType FromType() {
  BlockType t;
  t.name = "From";
  t.category = "Routing and structure";
  t.summary = "Receives the signal of the Goto block with the same tag.";
  t.doc =
      "A virtual block: the compiler replaces it by a connection from the signal that enters "
      "the Goto block of the same `tag`. It never runs and adds no delay.";
  t.reference = "Simulink From";
  t.params = {{"tag", ParamKind::kString, "", "the name that pairs Goto and From", {}, true}};
  t.outputs = {{"y", "the signal sent by the Goto"}};
  t.is_virtual = true;
  t.create = nullptr;
  return t;
}

}  // namespace twinblocks::blocks
