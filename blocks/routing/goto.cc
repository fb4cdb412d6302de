#include "blocks/routing/goto.h"

namespace twinblocks::blocks {

BlockType GotoType() {
  BlockType t;
  t.name = "Goto";
  t.category = "Routing and structure";
  t.summary = "Sends its input to the From blocks with the same tag.";
  t.doc =
      "A virtual block: the compiler connects whatever drives `u` directly to the inputs fed "
      "by every From block of the same `tag`, and removes both. It never runs and adds no "
      "delay.";
  t.reference = "Simulink Goto";
  t.params = {{"tag", ParamKind::kString, "", "the name that pairs Goto and From", {}, true}};
  t.inputs = {{"u", "the signal to send"}};
  t.is_virtual = true;
  t.create = nullptr;
  return t;
}

}  // namespace twinblocks::blocks
