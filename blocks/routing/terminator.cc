#include "blocks/routing/terminator.h"

#include <memory>

namespace twinblocks::blocks {

Terminator::Terminator(const Params& params) {
  // Nothing reads u, so it is not direct feedthrough and never orders other blocks.
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
}

BlockType TerminatorType() {
  BlockType t;
  t.name = "Terminator";
  t.category = "Routing and structure";
  t.summary = "Ends an unused signal.";
  t.doc = "Accepts any signal and does nothing with it; no outputs, no computation.";
  t.reference = "Simulink Terminator";
  t.inputs = {{"u", "any signal"}};
  t.create = [](const Params& p) { return std::make_unique<Terminator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
