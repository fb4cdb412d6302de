#include "blocks/signal/integrator.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "blocks/signal/detail/absolute_tolerance.h"
#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

Integrator::Integrator(const Params& params)
    : x0_param_(params.Vector("x0")),
      lower_param_(params.Vector("lower")),
      upper_param_(params.Vector("upper")),
      abs_tol_param_(internal::ReadAbsoluteTolerance(params, "abs_tol")),
      wrap_lower_param_(params.Vector("wrap_lower")),
      wrap_upper_param_(params.Vector("wrap_upper")),
      wrapped_(params.Bool("wrap")),
      reset_(params.Word("reset")) {
  const int wl = internal::CommonParamWidth({{"lower", &lower_param_}, {"upper", &upper_param_}});
  const std::vector<double> lo = internal::Expand(lower_param_, wl);
  const std::vector<double> hi = internal::Expand(upper_param_, wl);
  for (int i = 0; i < wl; ++i) {
    if (lo[i] > hi[i]) throw BlockError("parameter 'lower' is above 'upper'", "lower");
    limited_ = limited_ || std::isfinite(lo[i]) || std::isfinite(hi[i]);
  }
  if (wrapped_) {
    // Simulink offers the wrapped state only without limits: a state that wraps never
    // reaches a limit, and one held at a limit never wraps.
    if (limited_) {
      const bool lower_set =
          std::any_of(lo.begin(), lo.end(), [](double v) { return std::isfinite(v); });
      throw BlockError("wrap = true excludes the limits: leave 'lower' and 'upper' unset",
                       lower_set ? "lower" : "upper");
    }
    const int ww = internal::CommonParamWidth(
        {{"wrap_lower", &wrap_lower_param_}, {"wrap_upper", &wrap_upper_param_}});
    const std::vector<double> wlo = internal::Expand(wrap_lower_param_, ww);
    const std::vector<double> whi = internal::Expand(wrap_upper_param_, ww);
    for (int i = 0; i < ww; ++i) {
      if (!std::isfinite(wlo[i]) || !std::isfinite(whi[i]) || !(wlo[i] < whi[i])) {
        throw BlockError(
            "the wrapped range [wrap_lower, wrap_upper) must be finite and not "
            "empty, got [" +
                FormatValue(wlo[i]) + ", " + FormatValue(whi[i]) + ")",
            "wrap_lower");
      }
    }
  }
  if (x0_param_.size() == 0) throw BlockError("parameter 'x0' is empty", "x0");
  const bool external_x0 = params.Word("x0_source") == "external";
  const bool state_port = params.Bool("state_port");

  // y needs reset and x0 directly; with a state port it moves to stage 1, and `state` (stage
  // 0, needing nothing) can feed back into x0 without an algebraic loop. u is never needed
  // directly: it only drives the derivative.
  const int y_stage = state_port ? 1 : 0;
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
  if (reset_.enabled()) {
    in_reset_ = DeclareInput("reset", kDynamicWidth, FeedthroughToStage(y_stage));
  }
  if (external_x0) in_x0_ = DeclareInput("x0", kDynamicWidth, FeedthroughToStage(y_stage));
  out_y_ = DeclareOutput("y", kDynamicWidth, y_stage);
  if (state_port) out_state_ = DeclareOutput("state", kDynamicWidth, 0);
  DeclareSampleTime(SampleTime::Continuous());
  // Chooses the limit modes once every output is known; for a wrapped state, sees whether x
  // leaves through its lower bound from on it.
  if (limited_ || wrapped_) DeclareUpdate();
}

void Integrator::DoConfigure(const std::vector<int>& input_widths) {
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
  if (wrapped_) {
    internal::CheckParamFitsWidth("wrap_lower", static_cast<int>(wrap_lower_param_.size()), w, "u");
    internal::CheckParamFitsWidth("wrap_upper", static_cast<int>(wrap_upper_param_.size()), w, "u");
    wrap_lower_ = internal::Expand(wrap_lower_param_, w);
    wrap_upper_ = internal::Expand(wrap_upper_param_, w);
  }
  SetOutputWidth(out_y_, w);
  if (out_state_ >= 0) SetOutputWidth(out_state_, w);
  DeclareContinuousStates(w);
  if (abs_tol_param_.size() > 0) {
    DeclareAbsoluteTolerances(
        internal::ExpandAbsoluteTolerance(abs_tol_param_, "abs_tol", w, "the state width"));
  }
  const int level_modes = reset_.level() ? reset_width_ : 0;
  DeclareModes((limited_ ? w : 0) + level_modes);
  DeclareDWork(1 + reset_width_);
  DeclareZeroCrossings((limited_ ? 3 * w : 0) + reset_width_ + (wrapped_ ? 2 * w : 0));
}

double Integrator::Wrap(double v, int i) const {
  const double lo = wrap_lower_[i], hi = wrap_upper_[i];
  if (v >= lo && v < hi) return v;
  // One range off (the usual case: a step or a located crossing just past a bound) by one
  // subtraction, exact where v is near the bound; farther (an initial value) by the floor.
  const double range = hi - lo;
  double w = v >= hi && v < hi + range ? v - range : (v < lo && v >= lo - range ? v + range : v);
  if (w < lo || w >= hi) w = v - range * std::floor((v - lo) / range);
  // Rounding may leave w on hi itself: that is lo.
  return w >= hi ? lo : (w < lo ? lo : w);
}

void Integrator::DoInitialize(Context& c) const {
  double* x = this->x(c);
  // An external x0 is read at the first major step, when the signal that drives it exists.
  for (int i = 0; i < width_; ++i) x[i] = in_x0_ >= 0 ? 0.0 : Admissible(x0_[i], i);
  double* dw = dwork(c);
  for (int i = 0; i < num_dwork(); ++i) dw[i] = 0.0;
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void Integrator::DoCalcOutputs(Context& c, int stage) const {
  double* x = this->x(c);
  if (out_state_ >= 0 && stage == 0) {
    // The state before any reset at this step.
    double* s = out(c, out_state_);
    for (int i = 0; i < width_; ++i) s[i] = x[i];
    return;
  }
  if (c.major) {
    double* dw = dwork(c);
    const bool first = dw[0] == 0.0;
    bool changed = false;
    if (first) {
      dw[0] = 1.0;
      if (in_x0_ >= 0) {
        for (int i = 0; i < width_; ++i) x[i] = Admissible(InitialValue(c, i), i);
        changed = true;
      }
    }
    if (in_reset_ >= 0) {
      const double* r = in(c, in_reset_);
      double* prev = dw + 1;
      // The reset functions follow the limits' in the block's zero crossings.
      const int first_reset_zc = limited_ ? 3 * width_ : 0;
      for (int i = 0; i < width_; ++i) {
        const int j = i * reset_stride_;
        if (reset_.Fires(prev[j], r[j], first, zc_crossed(c, first_reset_zc + j))) {
          x[i] = Admissible(InitialValue(c, i), i);
          changed = true;
        }
      }
      if (reset_.level()) {
        int* active = modes(c) + (limited_ ? width_ : 0);
        for (int j = 0; j < reset_width_; ++j) active[j] = r[j] != 0.0 ? 1 : 0;
      }
      for (int j = 0; j < reset_width_; ++j) prev[j] = r[j];
    }
    if (limited_) {
      // A fixed-step solver (or a located crossing just past the limit) may overshoot.
      for (int i = 0; i < width_; ++i) {
        const double clamped = Clamp(x[i], i);
        if (clamped != x[i]) {
          x[i] = clamped;
          changed = true;
        }
      }
    }
    if (wrapped_) {
      // Past a bound (a located crossing ends a hair past it; a fixed step, anywhere past):
      // into the range again, and the solver restarts from there.
      for (int i = 0; i < width_; ++i) {
        const double w = Wrap(x[i], i);
        if (w != x[i]) {
          x[i] = w;
          changed = true;
        }
      }
    }
    if (changed) c.states_reset = true;
  }
  double* y = out(c, out_y_);
  for (int i = 0; i < width_; ++i) y[i] = x[i];
}

void Integrator::DoUpdate(Context& c) const {
  const double* u = in(c, 0);
  double* x = this->x(c);
  if (wrapped_) {
    // On the lower bound exactly (a step that ended there), and moving down: x leaves the
    // range at once, where no crossing can be located any more (its function is 0 already).
    // The same angle is the upper bound, from which it moves into the range.
    for (int i = 0; i < width_; ++i) {
      if (x[i] == wrap_lower_[i] && u[i * u_stride_] < 0.0) {
        x[i] = wrap_upper_[i];
        c.states_reset = true;
      }
    }
    return;
  }
  // Limited: hold at a limit while u pushes outward. A state within a hair of the limit
  // counts as on it, so a crossing located just before the limit does not recur at once.
  int* mode = modes(c);
  for (int i = 0; i < width_; ++i) {
    const double ui = u[i * u_stride_];
    const double tol_hi = 1e-12 * std::max(1.0, std::abs(upper_[i]));
    const double tol_lo = 1e-12 * std::max(1.0, std::abs(lower_[i]));
    int m = 0;
    if (x[i] >= upper_[i] - tol_hi && ui > 0.0) {
      m = 1;
    } else if (x[i] <= lower_[i] + tol_lo && ui < 0.0) {
      m = -1;
    }
    if (m != 0) {
      const double limit = m > 0 ? upper_[i] : lower_[i];
      if (x[i] != limit) {
        x[i] = limit;
        c.states_reset = true;
      }
    }
    mode[i] = m;
  }
}

void Integrator::DoCalcDerivatives(Context& c) const {
  const double* u = in(c, 0);
  double* xdot = this->xdot(c);
  for (int i = 0; i < width_; ++i) xdot[i] = u[i * u_stride_];
  if (limited_) {
    const int* mode = modes(c);
    for (int i = 0; i < width_; ++i) {
      if (mode[i] != 0) xdot[i] = 0.0;
    }
  }
  if (reset_.level()) {
    const int* active = modes(c) + (limited_ ? width_ : 0);
    for (int i = 0; i < width_; ++i) {
      if (active[i * reset_stride_] != 0) xdot[i] = 0.0;  // held at x0 while the level is on
    }
  }
}

void Integrator::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  if (limited_) {
    const double* u = in(c, 0);
    const double* x = this->x(c);
    const int* mode = modes(c);
    for (int i = 0; i < width_; ++i, z += 3) {
      internal::LimitZeroCrossings(mode[i] != 0, x[i], lower_[i], upper_[i], u[i * u_stride_], z);
    }
  }
  if (in_reset_ >= 0) {
    const double* r = in(c, in_reset_);
    for (int j = 0; j < reset_width_; ++j) z[j] = r[j];
    z += reset_width_;
  }
  if (wrapped_) {
    // Positive inside the range; each changes sign where x leaves it through its bound.
    const double* x = this->x(c);
    for (int i = 0; i < width_; ++i, z += 2) {
      z[0] = wrap_upper_[i] - x[i];
      z[1] = x[i] - wrap_lower_[i];
    }
  }
}

BlockType IntegratorType() {
  BlockType t;
  t.name = "Integrator";
  t.category = "Math and continuous";
  t.summary = "Integrates its input: a continuous state.";
  t.doc =
      "x' = u, y = x, x(t0) = x0 (continuous sample time; u is not direct feedthrough). The "
      "width comes from u, or from x0 when x0 is a vector (a scalar u expands).\n"
      "Limits: with finite `lower`/`upper`, x stays in [lower, upper]. A mode per element "
      "(free, at lower, at upper) is chosen at major steps: at a limit with u pushing "
      "outward, x' = 0. Zero-crossing functions: x - lower and x - upper while free, u while "
      "held, so variable-step solvers locate hitting and leaving the limit; x is clamped (and "
      "the solver restarted) if a step overshoots.\n"
      "Extensions: reset = rising | falling | either | level adds input `reset` (scalar or "
      "per element). At a major step where the reset fires, x = x0 and y outputs the new "
      "state; rising means the reset goes from < 0 to >= 0 or from 0 to > 0, falling the "
      "mirror, either both; level resets (and holds x' = 0) while reset != 0. The reset "
      "signal is a zero-crossing function. x0_source = external adds input `x0`, read at the "
      "first major step (x is 0 before) and at every reset. state_port = true adds output "
      "`state`: the state before any reset at this step, in a stage of its own that needs no "
      "input, so it may feed back into `x0` without an algebraic loop (y then needs "
      "reset/x0 directly, u never).\n"
      "Wrapped state (wrap = true, an angle): x stays in [wrap_lower, wrap_upper) (default "
      "[-pi, pi)). Zero-crossing functions wrap_upper - x and x - wrap_lower locate where x "
      "leaves the range; the major step there takes x back by wrap_upper - wrap_lower (x0 too, "
      "at the start and at resets) and restarts the solver; a step that ends on wrap_lower "
      "itself with u < 0 continues from wrap_upper (the same angle). Without limits (as in "
      "Simulink).";
  t.reference =
      "Simulink Integrator (limits, wrapped state, reset, external initial condition, state "
      "port)";
  t.params = {
      {"x0", ParamKind::kVector, "0", "initial state, scalar or per element"},
      {"lower", ParamKind::kVector, "-inf", "lower limit of the state, scalar or per element"},
      {"upper", ParamKind::kVector, "inf", "upper limit of the state, scalar or per element"},
      {"reset", ParamKind::kWord, "none", "external reset trigger",
       internal::ResetTrigger::Words()},
      {"x0_source",
       ParamKind::kWord,
       "internal",
       "internal: parameter x0; external: input x0",
       {"internal", "external"}},
      {"state_port", ParamKind::kWord, "false", "adds output `state`", {"false", "true"}},
      {"wrap",
       ParamKind::kWord,
       "false",
       "true: the state wraps into [wrap_lower, wrap_upper) (an angle), without limits",
       {"false", "true"}},
      {"wrap_lower", ParamKind::kVector, "-pi", "lower bound of the wrapped state (wrap = true)"},
      {"wrap_upper", ParamKind::kVector, "pi", "upper bound of the wrapped state (wrap = true)"},
      internal::AbsoluteToleranceParam("abs_tol", "the state")};
  t.inputs = {{"u", "the derivative of the state"},
              {"reset", "reset trigger (reset != none), scalar or per element"},
              {"x0", "initial state (x0_source = external), scalar or per element"}};
  t.outputs = {{"y", "the state"},
               {"state", "the state before any reset at this step (state_port = true)"}};
  t.create = [](const Params& p) { return std::make_unique<Integrator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
