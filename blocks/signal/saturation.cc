#include "blocks/signal/saturation.h"

#include <memory>

namespace twinblocks::blocks {

// Below, inside and above [lower, upper]: y = lower, y = u, y = upper.
Saturation::Saturation(const Params& params)
    : ThreeRegionBlock(params, "lower", "upper", {{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}}}) {}

BlockType SaturationType() {
  BlockType t;
  t.name = "Saturation";
  t.category = "Math and continuous";
  t.summary = "Limits the input to [lower, upper].";
  t.doc =
      "y = upper where u > upper, lower where u < lower, u otherwise, element-wise; vector "
      "limits apply per element (scalars expand). Zero crossings (continuous rate): the "
      "region is a mode chosen at major steps and held inside solver steps, so y stays "
      "smooth within a step; the zero-crossing functions are u - upper and u - lower per "
      "element. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Saturation (zero-crossing detection on)";
  t.params = {{"lower", ParamKind::kVector, "-1", "lower limit, scalar or per element"},
              {"upper", ParamKind::kVector, "1", "upper limit, scalar or per element"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the limited input"}};
  t.create = [](const Params& p) { return std::make_unique<Saturation>(p); };
  return t;
}

}  // namespace twinblocks::blocks
