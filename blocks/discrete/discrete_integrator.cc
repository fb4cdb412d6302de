#include "blocks/discrete/discrete_integrator.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DiscreteIntegrator::DiscreteIntegrator(const Params& params)
    : method_(internal::IntegrationMethod::FromWord(params.Word("method"), "method")),
      k_(params.Scalar("K")),
      x0_param_(params.Vector("x0")),
      lower_param_(params.Vector("lower")),
      upper_param_(params.Vector("upper")),
      reset_(params.Word("reset")) {
  if (!std::isfinite(k_)) throw BlockError("parameter 'K' must be a finite gain", "K");
  const int wl = internal::CommonParamWidth({{"lower", &lower_param_}, {"upper", &upper_param_}});
  const std::vector<double> lo = internal::Expand(lower_param_, wl);
  const std::vector<double> hi = internal::Expand(upper_param_, wl);
  for (int i = 0; i < wl; ++i) {
    if (std::isnan(lo[i]) || std::isnan(hi[i]) || lo[i] > hi[i]) {
      throw BlockError("parameter 'lower' must be at most 'upper'", "lower");
    }
  }
  if (x0_param_.size() == 0) throw BlockError("parameter 'x0' is empty", "x0");
  // u reaches y at once only where the step takes part of the current input (backward Euler,
  // trapezoidal); reset and x0 always do (y restarts at x0 at that very hit).
  DeclareInput("u", kDynamicWidth, method_.feedthrough() ? kFeedthrough : kNoFeedthrough);
  if (reset_.enabled()) in_reset_ = DeclareInput("reset");
  if (params.Word("x0_source") == "external") in_x0_ = DeclareInput("x0");
  DeclareOutput("y");
  if (params.Bool("saturation_port")) out_sat_ = DeclareOutput("sat");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/true);
}

void DiscreteIntegrator::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const internal::IntegratorWidths widths = internal::CheckIntegratorWidths(
      input_widths, in_reset_, in_x0_, x0_param_, lower_param_, upper_param_);
  const int w = widths.state;
  reset_width_ = widths.reset;
  reset_stride_ = internal::StrideOf(reset_width_);
  x0_stride_ = internal::StrideOf(widths.x0);
  width_ = w;
  u_stride_ = internal::StrideOf(wu);
  x0_ = internal::Expand(x0_param_, w);
  lower_ = internal::Expand(lower_param_, w);
  upper_ = internal::Expand(upper_param_, w);
  SetOutputWidth(0, w);
  if (out_sat_ >= 0) SetOutputWidth(out_sat_, w);
  DeclareDiscreteStates(w);
  DeclareDWork(1 + reset_width_);
}

void DiscreteIntegrator::DoInitialize(Context& c) const {
  // The first hit sets y = x0 and the state from it; until then the state is unused.
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) s[i] = 0.0;
  double* dw = dwork(c);
  for (int i = 0; i < num_dwork(); ++i) dw[i] = 0.0;
}

bool DiscreteIntegrator::Restarts(const Context& c, int i) const {
  const double* dw = dwork(c);
  const bool first = dw[0] == 0.0;
  if (first) return true;
  if (in_reset_ < 0) return false;
  const int j = i * reset_stride_;
  const double prev = dw[1 + j];
  const double now = in(c, in_reset_)[j];
  // Simulink's discrete `level` also resets at the hit where the signal returns to 0, so
  // that the integration starts from x0 at the first hit after the level.
  if (reset_.level()) return now != 0.0 || prev != 0.0;
  return reset_.Fires(prev, now, /*first=*/false, /*located=*/false);
}

void DiscreteIntegrator::DoCalcOutputs(Context& c, int stage) const {
  const Context& cc = c;
  const double* s = xd(cc);
  double* y = out(c, 0);
  // The period is the resolved one (an inherited Ts is known only after compile).
  const double kt_now = method_.now * k_ * sample_time().period;
  for (int i = 0; i < width_; ++i) {
    if (Restarts(cc, i)) {
      y[i] = Clamp(InitialValue(cc, i), i);
    } else if (method_.feedthrough()) {
      y[i] = Clamp(s[i] + kt_now * in(c, 0)[i * u_stride_], i);
    } else {
      y[i] = s[i];  // forward Euler: the state, kept within the limits by the update
    }
  }
  if (out_sat_ >= 0) {
    double* sat = out(c, out_sat_);
    for (int i = 0; i < width_; ++i) {
      sat[i] = y[i] >= upper_[i] ? 1.0 : (y[i] <= lower_[i] ? -1.0 : 0.0);
    }
  }
}

void DiscreteIntegrator::DoUpdate(Context& c) const {
  const double* u = in(c, 0);
  const double* y = out(c, 0);  // this hit's output, computed just before
  double* s = xd(c);
  const double kt_next = (1.0 - method_.now) * k_ * sample_time().period;
  for (int i = 0; i < width_; ++i) {
    // Backward Euler carries y over as it is (no 0 * u, which an infinite u would make NaN).
    s[i] = kt_next == 0.0 ? y[i] : Clamp(y[i] + kt_next * u[i * u_stride_], i);
  }
  double* dw = dwork(c);
  dw[0] = 1.0;
  if (in_reset_ >= 0) {
    const double* r = in(c, in_reset_);
    for (int j = 0; j < reset_width_; ++j) dw[1 + j] = r[j];
  }
}

BlockType DiscreteIntegratorType() {
  BlockType t;
  t.name = "DiscreteIntegrator";
  t.category = "Discrete and logic";
  t.summary = "Discrete-time integrator: forward Euler, backward Euler or trapezoidal.";
  t.doc =
      "At each hit t_k = offset + k Ts: y[k] = y[k-1] + K Ts u[k-1] (forward-euler, 1/s ~ "
      "Ts/(z-1)), y[k] = y[k-1] + K Ts u[k] (backward-euler, Ts z/(z-1)), or y[k] = y[k-1] + "
      "K Ts (u[k] + u[k-1]) / 2 (trapezoidal, (Ts/2)(z+1)/(z-1)). Realized with one state s "
      "per element: y[k] = s[k] + a K Ts u[k], s[k+1] = y[k] + (1 - a) K Ts u[k], a = 0, 1, "
      "1/2. At the first hit y[0] = x0, so y[1] = x0 + K Ts u[0] (forward), x0 + K Ts u[1] "
      "(backward), x0 + K Ts (u[0] + u[1]) / 2 (trapezoidal). u is direct feedthrough except "
      "for forward-euler. Element-wise; the width comes from u, or from x0 when x0 is a "
      "vector.\n"
      "Limits: with finite lower/upper, y and the state are clipped to [lower, upper] (so a "
      "held limit does not wind up). saturation_port = true adds output `sat`: +1 where y is "
      "at upper, -1 at lower, 0 between.\n"
      "Reset: reset = rising | falling | either | level adds input `reset` (scalar or per "
      "element), read at each hit: rising means from < 0 to >= 0 or from 0 to > 0, falling "
      "the mirror, either both; level fires while reset != 0 and at the hit where it returns "
      "to 0. At a hit where the reset fires, the element starts again as at the first hit: "
      "y[k] = x0 (clipped) and s[k+1] from it. x0_source = external adds input `x0`, read "
      "at the first hit and at resets. Ts = -1 inherits the input's (discrete) rate; its "
      "period is used in the equations.";
  t.reference =
      "Simulink Discrete-Time Integrator (integration mode with Initial condition setting = "
      "Output, y(0) = IC; limits, saturation port, external reset, external initial "
      "condition). Differs: the state is clipped too for every method. Not offered: "
      "accumulation mode, the state port, `sampled level` reset, Initial condition setting "
      "= State.";
  t.params = {{"method", ParamKind::kWord, "forward-euler", "integration method",
               internal::IntegrationMethod::Words()},
              {"K", ParamKind::kScalar, "1", "gain on the input"},
              {"x0", ParamKind::kVector, "0", "initial output, scalar or per element"},
              {"x0_source",
               ParamKind::kWord,
               "internal",
               "internal: parameter x0; external: input x0",
               {"internal", "external"}},
              {"lower", ParamKind::kVector, "-inf", "lower limit of y, scalar or per element"},
              {"upper", ParamKind::kVector, "inf", "upper limit of y, scalar or per element"},
              {"saturation_port",
               ParamKind::kWord,
               "false",
               "adds output `sat` (+1 at upper, -1 at lower, 0 between)",
               {"false", "true"}},
              {"reset", ParamKind::kWord, "none", "external reset trigger",
               internal::ResetTrigger::Words()},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "the input to integrate"},
              {"reset", "reset trigger (reset != none), scalar or per element"},
              {"x0", "initial output (x0_source = external), scalar or per element"}};
  t.outputs = {{"y", "the integral, width of the state"},
               {"sat", "+1 at upper, -1 at lower, 0 between (saturation_port = true)"}};
  t.create = [](const Params& p) { return std::make_unique<DiscreteIntegrator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
