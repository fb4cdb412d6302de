#include "blocks/discrete/unit_delay.h"

#include <memory>

#include "blocks/discrete/delay.h"

namespace twinblocks::blocks {

BlockType UnitDelayType() {
  BlockType t;
  t.name = "UnitDelay";
  t.category = "Discrete and logic";
  t.summary = "Delays its input by one sample.";
  t.doc =
      "y[k] = u[k-1], y[0] = x0, at t = offset + k Ts: at each hit y outputs the state, then "
      "the state takes u. u is not direct feedthrough (the block breaks algebraic loops). "
      "Ts = -1 inherits the rate of the input, which must then be discrete. The width comes "
      "from u, or from x0 when x0 is a vector.";
  t.reference = "Simulink Unit Delay";
  t.params = {{"x0", ParamKind::kVector, "0", "initial output, scalar or per element"},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the input one sample ago"}};
  t.create = [](const Params& p) { return std::make_unique<Delay>(p, 1); };
  return t;
}

}  // namespace twinblocks::blocks
