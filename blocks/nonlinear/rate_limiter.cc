#include "blocks/nonlinear/rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

/// Simulink's encoding of the block's Ts: -1 inherits, 0 is continuous, a positive finite
/// number a discrete period. @throws BlockError otherwise.
SampleTime RateLimiterSampleTime(double ts, double offset) {
  if (ts == 0.0) return SampleTime::Continuous();
  return internal::DiscreteSampleTime(ts, offset);
}

}  // namespace

RateLimiter::RateLimiter(const Params& params)
    : rising_param_(params.Vector("rising")),
      falling_param_(params.Vector("falling")),
      initial_condition_param_(params.Vector("initial_condition")) {
  const int w = internal::CommonParamWidth({{"rising", &rising_param_},
                                            {"falling", &falling_param_},
                                            {"initial_condition", &initial_condition_param_}});
  const std::vector<double> rising = internal::Expand(rising_param_, w);
  const std::vector<double> falling = internal::Expand(falling_param_, w);
  for (int i = 0; i < w; ++i) {
    if (!(rising[i] >= 0.0)) {
      throw BlockError("parameter 'rising' must be a rate >= 0 (units of u per s; inf: no limit)",
                       "rising");
    }
    if (!(falling[i] <= 0.0)) {
      throw BlockError("parameter 'falling' must be a rate <= 0 (units of u per s; -inf: no limit)",
                       "falling");
    }
  }
  if (!initial_condition_param_.allFinite()) {
    throw BlockError("parameter 'initial_condition' must be finite", "initial_condition");
  }
  DeclareInput("u");
  DeclareOutput("y");
  const SampleTime st = RateLimiterSampleTime(params.Scalar("Ts"), params.Scalar("offset"));
  DeclareSampleTime(st);
  DeclareUpdate();  // remembers y and t at every major step (every hit when discrete)
  // Continuously, y moves with t between major steps.
  if (!st.is_discrete()) DeclareTimeDependence();
}

void RateLimiter::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(
      std::max({rising_param_.size(), falling_param_.size(), initial_condition_param_.size()}));
  if (wp != 1 && wu != 1) {
    const char* name = rising_param_.size() > 1    ? "rising"
                       : falling_param_.size() > 1 ? "falling"
                                                   : "initial_condition";
    internal::CheckParamFitsWidth(name, wp, wu, "u");
  }
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  rising_ = internal::Expand(rising_param_, width_);
  falling_ = internal::Expand(falling_param_, width_);
  initial_condition_ = internal::Expand(initial_condition_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(2 + width_);
}

void RateLimiter::DoInitialize(Context& c) const {
  double* dw = dwork(c);
  // Continuously, y(t0) = u(t0) (Simulink ignores the initial condition there); on a
  // discrete rate the first hit limits the step from initial_condition over one period.
  dw[0] = 0.0;
  dw[1] = c.t;
  for (int i = 0; i < width_; ++i) dw[2 + i] = initial_condition_[i];
}

void RateLimiter::DoCalcOutputs(Context& c, int stage) const {
  const double* dw = dwork(static_cast<const Context&>(c));
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const bool discrete = rate_index() >= 0;
  const double* y_prev = dw + 2;
  if (!discrete && dw[0] == 0.0) {
    for (int i = 0; i < width_; ++i) y[i] = u[i * u_stride_];
    return;
  }
  // A second major step at the same time (after an event) moves nothing.
  const double dt = discrete ? sample_time().period : std::max(0.0, c.t - dw[1]);
  for (int i = 0; i < width_; ++i) {
    // With dt = 0 a finite limit allows no change; an infinite one (inf * 0 is NaN, which
    // compares false) none is asked for.
    const double up = rising_[i] * dt;
    const double down = falling_[i] * dt;
    const double change = u[i * u_stride_] - y_prev[i];
    y[i] = y_prev[i] + (change > up ? up : (change < down ? down : change));
  }
}

void RateLimiter::DoUpdate(Context& c) const {
  double* dw = dwork(c);
  const double* y = out(c, 0);
  dw[0] = 1.0;
  dw[1] = c.t;
  for (int i = 0; i < width_; ++i) dw[2 + i] = y[i];
}

BlockType RateLimiterType() {
  BlockType t;
  t.name = "RateLimiter";
  t.category = "Discontinuities";
  t.summary = "Limits how fast its output may rise and fall.";
  t.doc =
      "rate = (u(t) - y_prev) / (t - t_prev), with y_prev and t_prev the output and time of "
      "the last major step; y = y_prev + rising dt where the rate exceeds rising, y_prev + "
      "falling dt where it is below falling, u otherwise (dt = t - t_prev), element-wise. On "
      "a continuous rate y(t0) = u(t0) (initial_condition is not used, as in Simulink) and "
      "y moves with t inside the solver's steps; it never jumps, so it needs no zero "
      "crossings. On a discrete rate (Ts > 0, or Ts = -1 with a discrete input) the block "
      "runs at its hits with dt = Ts, starting from y_prev = initial_condition. Direct "
      "feedthrough.";
  t.reference = "Simulink Rate Limiter (RisingSlewLimit, FallingSlewLimit, InitialCondition)";
  t.params = {{"rising", ParamKind::kVector, "1",
               "largest rate of rise, units of u per s, >= 0 (inf: none)"},
              {"falling", ParamKind::kVector, "-1",
               "largest rate of fall, units of u per s, <= 0 (-inf: none)"},
              {"initial_condition", ParamKind::kVector, "0",
               "output before the first hit on a discrete rate, scalar or per element"},
              {"Ts", ParamKind::kScalar, "-1",
               "sample time, s; -1 inherits (continuous or discrete), 0 continuous"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the rate-limited input"}};
  t.create = [](const Params& p) { return std::make_unique<RateLimiter>(p); };
  return t;
}

}  // namespace twinblocks::blocks
