#include "blocks/discrete/zero_order_hold.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

ZeroOrderHold::ZeroOrderHold(const Params& params) {
  DeclareInput("u");
  DeclareOutput("y");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")));
}

void ZeroOrderHold::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const int n = out_width(0);
  for (int i = 0; i < n; ++i) y[i] = u[i];
}

BlockType ZeroOrderHoldType() {
  BlockType t;
  t.name = "ZeroOrderHold";
  t.category = "Discrete and logic";
  t.summary = "Samples its input and holds it for one sample period.";
  t.doc =
      "y(t) = u(offset + k Ts) for offset + k Ts <= t < offset + (k + 1) Ts: the block runs "
      "only at its hits and its output is held in between. Direct feedthrough. With Ts = -1 "
      "it takes the input's rate (a pass-through for a continuous input).";
  t.reference = "Simulink Zero-Order Hold";
  t.params = {{"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the held sample, width of u"}};
  t.create = [](const Params& p) { return std::make_unique<ZeroOrderHold>(p); };
  return t;
}

}  // namespace twinblocks::blocks
