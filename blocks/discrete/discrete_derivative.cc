#include "blocks/discrete/discrete_derivative.h"

#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DiscreteDerivative::DiscreteDerivative(const Params& params)
    : k_(params.Scalar("K")), x0_param_(params.Vector("x0")) {
  if (!std::isfinite(k_)) throw BlockError("parameter 'K' must be a finite gain", "K");
  if (x0_param_.size() == 0) throw BlockError("parameter 'x0' is empty", "x0");
  DeclareInput("u");
  DeclareOutput("y");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/true);
}

void DiscreteDerivative::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int n0 = static_cast<int>(x0_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("x0", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  u_stride_ = internal::StrideOf(wu);
  x0_ = internal::Expand(x0_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(width_);
}

void DiscreteDerivative::DoInitialize(Context& c) const {
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) s[i] = x0_[i];
}

void DiscreteDerivative::DoCalcOutputs(Context& c, int stage) const {
  // The period is the resolved one (an inherited Ts is known only after compile).
  const double k_ts = k_ / sample_time().period;
  const double* u = in(c, 0);
  const double* s = xd(static_cast<const Context&>(c));
  double* y = out(c, 0);
  for (int i = 0; i < width_; ++i) y[i] = k_ts * u[i * u_stride_] - s[i];
}

void DiscreteDerivative::DoUpdate(Context& c) const {
  const double k_ts = k_ / sample_time().period;
  const double* u = in(c, 0);
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) s[i] = k_ts * u[i * u_stride_];
}

BlockType DiscreteDerivativeType() {
  BlockType t;
  t.name = "DiscreteDerivative";
  t.category = "Discrete and logic";
  t.summary = "Discrete derivative: the backward difference of its input over Ts.";
  t.doc =
      "At each hit t_k = offset + k Ts: y[k] = K u[k] / Ts - s[k], then s[k+1] = K u[k] / Ts, "
      "with s[0] = x0: y[k] = K (u[k] - u[k-1]) / Ts after the first hit, and y[0] = K u[0] "
      "/ Ts - x0 (x0 = K u[-1] / Ts, the previous weighted input). In z terms K (z - 1) / "
      "(Ts z). Direct feedthrough. Element-wise; the width comes from u, or from x0 when x0 "
      "is a vector. Ts = -1 inherits the input's (discrete) rate, whose period is used.";
  t.reference =
      "Simulink Discrete Derivative (gain K, initial condition for the previous weighted "
      "input K u / Ts)";
  t.params = {{"K", ParamKind::kScalar, "1", "gain"},
              {"x0", ParamKind::kVector, "0",
               "initial previous weighted input K u[-1] / Ts, scalar or per element"},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the difference quotient, width of the state"}};
  t.create = [](const Params& p) { return std::make_unique<DiscreteDerivative>(p); };
  return t;
}

}  // namespace twinblocks::blocks
