#include "blocks/discrete/delay.h"

#include <cstdint>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Delay::Delay(const Params& params) : Delay(params, params.Integer("n")) {}

Delay::Delay(const Params& params, int n) : n_(n), x0_param_(params.Vector("x0")) {
  if (n_ < 0) throw BlockError("parameter 'n' must be 0 or more samples", "n");
  if (x0_param_.size() == 0) throw BlockError("parameter 'x0' is empty", "x0");
  // n = 0 is a plain wire and needs u directly; any delay does not.
  DeclareInput("u", kDynamicWidth, n_ == 0 ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/n_ > 0);
}

void Delay::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int n0 = static_cast<int>(x0_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("x0", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  u_stride_ = internal::StrideOf(wu);
  x0_ = internal::Expand(x0_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(std::int64_t{n_} * width_);  // checked against the limit, no overflow
  if (n_ > 0) DeclareDWork(1);                       // head of the ring buffer
}

void Delay::DoInitialize(Context& c) const {
  double* s = xd(c);
  for (int k = 0; k < n_; ++k) {
    for (int i = 0; i < width_; ++i) s[k * width_ + i] = x0_[i];
  }
  if (n_ > 0) dwork(c)[0] = 0.0;
}

void Delay::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  if (n_ == 0) {
    const double* u = in(c, 0);
    for (int i = 0; i < width_; ++i) y[i] = u[i * u_stride_];
    return;
  }
  if (n_ == 1 && width_ == 1) {
    // The common unit delay of a scalar (a detector's chain): one stored sample.
    y[0] = xd(static_cast<const Context&>(c))[0];
    return;
  }
  const int head = static_cast<int>(dwork(static_cast<const Context&>(c))[0]);
  const double* oldest = xd(static_cast<const Context&>(c)) + head * width_;
  for (int i = 0; i < width_; ++i) y[i] = oldest[i];
}

std::optional<Block::UnitDelaySlots> Delay::unit_delay_slots() const {
  if (n_ != 1 || width_ != 1 || rate_index() < 0) return std::nullopt;
  return UnitDelaySlots{xd_offset(), input_port(0).offset, output_port(0).offset};
}

void Delay::DoUpdate(Context& c) const {
  if (n_ == 0) return;
  if (n_ == 1 && width_ == 1) {
    xd(c)[0] = in(c, 0)[0];  // the ring's head stays at 0
    return;
  }
  double* dw = dwork(c);
  const int head = static_cast<int>(dw[0]);
  // The oldest sample has been output: overwrite it with the newest.
  double* slot = xd(c) + head * width_;
  const double* u = in(c, 0);
  for (int i = 0; i < width_; ++i) slot[i] = u[i * u_stride_];
  dw[0] = head + 1 == n_ ? 0.0 : head + 1.0;
}

BlockType DelayType() {
  BlockType t;
  t.name = "Delay";
  t.category = "Discrete and logic";
  t.summary = "Delays its input by n samples.";
  t.doc =
      "y[k] = u[k-n] at t = offset + k Ts, and y = x0 for k < n. At each hit y outputs the "
      "oldest stored sample, then the newest input replaces it (a ring buffer of n samples "
      "in the discrete states). For n >= 1, u is not direct feedthrough; n = 0 passes u "
      "through. Ts = -1 inherits the input's rate. x0 is a scalar or one value per element; "
      "the width comes from u, or from x0 when x0 is a vector.";
  t.reference = "Simulink Delay (delay length n, initial condition x0)";
  t.params = {{"n", ParamKind::kScalar, "1", "delay length, samples"},
              {"x0", ParamKind::kVector, "0", "initial output, scalar or per element"},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the input n samples ago"}};
  t.create = [](const Params& p) { return std::make_unique<Delay>(p); };
  return t;
}

}  // namespace twinblocks::blocks
