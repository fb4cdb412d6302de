#include "blocks/signal/dead_zone.h"

#include <memory>

namespace twinblocks::blocks {

// Below, inside and above [start, end]: y = u - start, y = 0, y = u - end.
DeadZone::DeadZone(const Params& params)
    : ThreeRegionBlock(params, "start", "end", {{{1, -1, 0}, {0, 0, 0}, {1, 0, -1}}}) {}

BlockType DeadZoneType() {
  BlockType t;
  t.name = "DeadZone";
  t.category = "Math and continuous";
  t.summary = "Zero output inside [start, end], shifted input outside.";
  t.doc =
      "y = u - end where u > end, y = u - start where u < start, y = 0 otherwise, "
      "element-wise; vector limits apply per element. Zero crossings (continuous rate): the "
      "region is a mode chosen at major steps and held inside solver steps; the zero-crossing "
      "functions are u - end and u - start per element. Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Dead Zone (zero-crossing detection on)";
  t.params = {{"start", ParamKind::kVector, "-0.5", "lower end of the dead zone"},
              {"end", ParamKind::kVector, "0.5", "upper end of the dead zone"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the input outside the dead zone, shifted to be continuous"}};
  t.create = [](const Params& p) { return std::make_unique<DeadZone>(p); };
  return t;
}

}  // namespace twinblocks::blocks
