#include "blocks/discrete/unit_delay.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

UnitDelay::UnitDelay(const Params& params) : x0_param_(params.Vector("x0")) {
  if (x0_param_.size() == 0) throw BlockError("parameter 'x0' is empty", "x0");
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
  DeclareOutput("y");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/true);
}

void UnitDelay::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int n0 = static_cast<int>(x0_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("x0", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  u_stride_ = internal::StrideOf(wu);
  x0_ = internal::Expand(x0_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(width_);
}

void UnitDelay::DoInitialize(Context& c) const {
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) s[i] = x0_[i];
}

void UnitDelay::DoCalcOutputs(Context& c, int stage) const {
  const double* s = xd(static_cast<const Context&>(c));
  double* y = out(c, 0);
  for (int i = 0; i < width_; ++i) y[i] = s[i];
}

void UnitDelay::DoUpdate(Context& c) const {
  const double* u = in(c, 0);
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) s[i] = u[i * u_stride_];
}

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
  t.create = [](const Params& p) { return std::make_unique<UnitDelay>(p); };
  return t;
}

}  // namespace twinblocks::blocks
