#include "blocks/signal/second_order_integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "blocks/signal/detail/absolute_tolerance.h"
#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {
namespace {

/// The shortest flight the clock can resolve at `t`: a flight is begun at a located crossing
/// and must end at another one, and the simulator tells the two ends apart only when they are
/// well over its probe's 100 eps |t| apart (docs/simulation.md, "Zero crossings").
double ShortestResolvableFlight(double t) {
  return 1024.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
}

}  // namespace

SecondOrderIntegrator::SecondOrderIntegrator(const Params& params)
    : x0_param_(params.Vector("x0")),
      dx0_param_(params.Vector("dx0")),
      lower_param_(params.Vector("lower")),
      upper_param_(params.Vector("upper")),
      lower_dx_param_(params.Vector("lower_dx")),
      upper_dx_param_(params.Vector("upper_dx")),
      abs_tol_x_param_(internal::ReadAbsoluteTolerance(params, "abs_tol_x")),
      abs_tol_dx_param_(internal::ReadAbsoluteTolerance(params, "abs_tol_dx")),
      reinit_(params.Bool("reinit_dx")),
      min_flight_(params.Scalar("min_flight")),
      reset_(params.Word("reset")) {
  width_param_ = internal::CommonParamWidth({{"x0", &x0_param_},
                                             {"dx0", &dx0_param_},
                                             {"lower", &lower_param_},
                                             {"upper", &upper_param_},
                                             {"lower_dx", &lower_dx_param_},
                                             {"upper_dx", &upper_dx_param_}});
  const int w = width_param_;
  const std::vector<double> lo = internal::Expand(lower_param_, w);
  const std::vector<double> hi = internal::Expand(upper_param_, w);
  const std::vector<double> lo_dx = internal::Expand(lower_dx_param_, w);
  const std::vector<double> hi_dx = internal::Expand(upper_dx_param_, w);
  for (int i = 0; i < w; ++i) {
    if (lo[i] > hi[i]) throw BlockError("parameter 'lower' is above 'upper'", "lower");
    if (lo_dx[i] > hi_dx[i]) {
      throw BlockError("parameter 'lower_dx' is above 'upper_dx'", "lower_dx");
    }
    limited_x_ = limited_x_ || std::isfinite(lo[i]) || std::isfinite(hi[i]);
    limited_dx_ = limited_dx_ || std::isfinite(lo_dx[i]) || std::isfinite(hi_dx[i]);
  }
  if (limited_x_) {
    // x stops at its limits with dx = 0; limits on dx that exclude 0 would forbid that.
    for (int i = 0; i < w; ++i) {
      if (lo_dx[i] > 0.0) {
        throw BlockError("parameter 'lower_dx' is above 0: x could not stop at its limits",
                         "lower_dx");
      }
      if (hi_dx[i] < 0.0) {
        throw BlockError("parameter 'upper_dx' is below 0: x could not stop at its limits",
                         "upper_dx");
      }
    }
  }
  if (reinit_ && !limited_x_) {
    throw BlockError("reinit_dx = true needs a finite 'lower' or 'upper' for x", "reinit_dx");
  }
  if (!(min_flight_ >= 0.0)) {
    throw BlockError("parameter 'min_flight' must be >= 0, got " + FormatValue(min_flight_),
                     "min_flight");
  }

  // u drives the derivative only, and dx_reinit is read at the major step's update, after
  // the outputs, so that dx may feed it (a ball's -e dx): neither is needed directly. A reset
  // and the external initial conditions are, as in the Integrator: the outputs at the step
  // where they act show the new state.
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
  if (reinit_) in_reinit_ = DeclareInput("dx_reinit", kDynamicWidth, kNoFeedthrough);
  if (reset_.enabled()) in_reset_ = DeclareInput("reset", kDynamicWidth, kFeedthrough);
  if (params.Word("x0_source") == "external") {
    in_x0_ = DeclareInput("x0", kDynamicWidth, kFeedthrough);
  }
  if (params.Word("dx0_source") == "external") {
    in_dx0_ = DeclareInput("dx0", kDynamicWidth, kFeedthrough);
  }
  out_x_ = DeclareOutput("x", kDynamicWidth, 0);
  out_dx_ = DeclareOutput("dx", kDynamicWidth, 0);
  DeclareSampleTime(SampleTime::Continuous());
  if (limited_x_ || limited_dx_) DeclareUpdate();  // modes need u, known once outputs are
}

void SecondOrderIntegrator::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  if (wu != 1) {
    const std::pair<const char*, const Eigen::VectorXd*> vectors[] = {
        {"x0", &x0_param_},       {"dx0", &dx0_param_},           {"lower", &lower_param_},
        {"upper", &upper_param_}, {"lower_dx", &lower_dx_param_}, {"upper_dx", &upper_dx_param_}};
    for (const auto& [name, v] : vectors) {
      internal::CheckParamFitsWidth(name, static_cast<int>(v->size()), wu, "u");
    }
  }
  const int w = wu != 1 ? wu : width_param_;
  auto check_input = [&](int port, const char* name) {
    if (port < 0) return 0;
    const int wi = input_widths[port];
    if (wi != 1 && wi != w) {
      throw BlockError(std::string("input '") + name + "' has width " + std::to_string(wi) +
                           ", expected 1 or the state width " + std::to_string(w),
                       {}, name);
    }
    return wi;
  };
  reinit_stride_ = internal::StrideOf(check_input(in_reinit_, "dx_reinit"));
  reset_width_ = check_input(in_reset_, "reset");
  reset_stride_ = internal::StrideOf(reset_width_);
  x0_stride_ = internal::StrideOf(check_input(in_x0_, "x0"));
  dx0_stride_ = internal::StrideOf(check_input(in_dx0_, "dx0"));
  width_ = w;
  u_stride_ = internal::StrideOf(wu);
  x0_ = internal::Expand(x0_param_, w);
  dx0_ = internal::Expand(dx0_param_, w);
  lower_ = internal::Expand(lower_param_, w);
  upper_ = internal::Expand(upper_param_, w);
  lower_dx_ = internal::Expand(lower_dx_param_, w);
  upper_dx_ = internal::Expand(upper_dx_param_, w);
  SetOutputWidth(out_x_, w);
  SetOutputWidth(out_dx_, w);
  DeclareContinuousStates(2 * w);
  if (abs_tol_x_param_.size() > 0 || abs_tol_dx_param_.size() > 0) {
    std::vector<double> tol =
        internal::ExpandAbsoluteTolerance(abs_tol_x_param_, "abs_tol_x", w, "the state width");
    const std::vector<double> tol_dx =
        internal::ExpandAbsoluteTolerance(abs_tol_dx_param_, "abs_tol_dx", w, "the state width");
    tol.insert(tol.end(), tol_dx.begin(), tol_dx.end());
    DeclareAbsoluteTolerances(std::move(tol));
  }
  const int level_modes = reset_.level() ? reset_width_ : 0;
  DeclareModes((limited_x_ ? w : 0) + (limited_dx_ ? w : 0) + level_modes);
  DeclareDWork((limited_x_ ? w : 0) + 1 + reset_width_);
  DeclareZeroCrossings(3 * w * ((limited_x_ ? 1 : 0) + (limited_dx_ ? 1 : 0)) + reset_width_);
}

void SecondOrderIntegrator::DoInitialize(Context& c) const {
  double* x = this->x(c);
  double* dx = x + width_;
  // External initial conditions are read at the first major step, when the signals that
  // drive them exist (x and dx are 0 before).
  for (int i = 0; i < width_; ++i) {
    x[i] = in_x0_ >= 0 ? 0.0 : std::clamp(x0_[i], lower_[i], upper_[i]);
    dx[i] = in_dx0_ >= 0 ? 0.0 : std::clamp(dx0_[i], lower_dx_[i], upper_dx_[i]);
  }
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
  double* dw = dwork(c);
  for (int i = 0; i < num_dwork(); ++i) dw[i] = 0.0;
}

void SecondOrderIntegrator::SetInitialConditions(const Context& c, int i, double* x,
                                                 double* dx) const {
  x[i] = std::clamp(in_x0_ >= 0 ? in(c, in_x0_)[i * x0_stride_] : x0_[i], lower_[i], upper_[i]);
  const double v = in_dx0_ >= 0 ? in(c, in_dx0_)[i * dx0_stride_] : dx0_[i];
  dx[i] = std::clamp(v, lower_dx_[i], upper_dx_[i]);
}

void SecondOrderIntegrator::ApplyInitialConditionsAndReset(Context& c) const {
  double* x = this->x(c);
  double* dx = x + width_;
  double* dw = dwork(c) + (limited_x_ ? width_ : 0);  // [started][reset inputs before]
  const bool first = dw[0] == 0.0;
  bool changed = false;
  if (first) {
    dw[0] = 1.0;
    if (in_x0_ >= 0 || in_dx0_ >= 0) {
      for (int i = 0; i < width_; ++i) SetInitialConditions(c, i, x, dx);
      changed = true;
    }
  }
  if (in_reset_ >= 0) {
    const double* r = in(c, in_reset_);
    double* prev = dw + 1;
    const int first_reset_zc = 3 * width_ * ((limited_x_ ? 1 : 0) + (limited_dx_ ? 1 : 0));
    for (int i = 0; i < width_; ++i) {
      const int j = i * reset_stride_;
      if (reset_.Fires(prev[j], r[j], first, zc_crossed(c, first_reset_zc + j))) {
        SetInitialConditions(c, i, x, dx);
        if (limited_x_) dwork(c)[i] = 0.0;  // no bounce to follow up
        changed = true;
      }
    }
    if (reset_.level()) {
      int* active = modes(c) + width_ * ((limited_x_ ? 1 : 0) + (limited_dx_ ? 1 : 0));
      for (int j = 0; j < reset_width_; ++j) active[j] = r[j] != 0.0 ? 1 : 0;
    }
    for (int j = 0; j < reset_width_; ++j) prev[j] = r[j];
  }
  if (changed) c.states_reset = true;
}

void SecondOrderIntegrator::DoCalcOutputs(Context& c, int /*stage*/) const {
  if (c.major && (in_reset_ >= 0 || in_x0_ >= 0 || in_dx0_ >= 0)) {
    ApplyInitialConditionsAndReset(c);
  }
  // A step may end past a limit (a fixed step overshoots; a located crossing ends a rounding
  // error beyond it): the outputs show the limit, and the update moves the state there.
  const double* x = this->x(c);
  const double* dx = x + width_;
  double* y = out(c, out_x_);
  double* v = out(c, out_dx_);
  for (int i = 0; i < width_; ++i) {
    y[i] = std::clamp(x[i], lower_[i], upper_[i]);
    v[i] = std::clamp(dx[i], lower_dx_[i], upper_dx_[i]);
  }
}

bool SecondOrderIntegrator::SettleOnLimit(double t, int side, double u, double reinit,
                                          double* dx) const {
  // A reinitialized dx that does not point back inside cannot leave the limit.
  const double v = reinit * side < 0.0 ? reinit : 0.0;
  const double push = u * side;  // > 0: u drives x further into the limit
  if (v == 0.0) {
    *dx = 0.0;
    return push > 0.0;  // held while u pushes outward; free (at rest) otherwise
  }
  // A bounce: under the push it returns after 2 |v| / push. A flight shorter than the clock
  // resolves, or than min_flight, is not begun: the bounces that remain would all end within
  // it (they shrink geometrically), so x comes to rest on the limit now, at the Zeno time to
  // within that flight's length.
  if (push > 0.0 &&
      2.0 * std::abs(v) <= push * std::max(min_flight_, ShortestResolvableFlight(t))) {
    *dx = 0.0;
    return true;
  }
  *dx = v;
  return false;
}

void SecondOrderIntegrator::DoUpdate(Context& c) const {
  const double* u = in(c, 0);
  const double* reinit = in_reinit_ >= 0 ? in(c, in_reinit_) : nullptr;
  double* x = this->x(c);
  double* dx = x + width_;
  double* bounced = dwork(c);
  int* mode_x = modes(c);
  int* mode_dx = mode_x + (limited_x_ ? width_ : 0);
  const int zc_dx = limited_x_ ? 3 * width_ : 0;
  for (int i = 0; i < width_; ++i) {
    const double ui = u[i * u_stride_];
    const double x_before = x[i], dx_before = dx[i];
    bool held = false;
    if (limited_x_) {
      const int bounced_last_step = static_cast<int>(bounced[i]);
      bounced[i] = 0.0;
      // On a limit: at or past it, or its crossing located in the step just ended (which
      // may end a rounding error short of it). No tolerance beyond that: near a Zeno time
      // the bounces rise less than any fixed one.
      const bool past = x[i] > upper_[i] || x[i] < lower_[i];
      const bool located_upper = zc_crossed(c, 3 * i + 1), located_lower = zc_crossed(c, 3 * i);
      int side = 0;
      if (x[i] >= upper_[i] || located_upper) {
        side = 1;
      } else if (x[i] <= lower_[i] || located_lower) {
        side = -1;
      }
      if (side != 0) {
        const double push = ui * side;  // > 0: u drives x further into the limit
        const bool located = side > 0 ? located_upper : located_lower;
        // A flight the solver lost, so short that the flights after it would be shorter
        // still: x comes to rest. Either the step ended past the limit, or on a located
        // crossing of it, still moving inward (the exact flight never reaches the limit
        // while it rises: the solver's error exceeds its height), or it ended past the limit
        // one step after a bounce without locating the crossing (a fixed step longer than
        // the whole flight).
        const bool moving_inward = dx[i] * side < 0.0;
        const bool lost = push > 0.0 && ((moving_inward && (past || located)) ||
                                         (past && !located && bounced_last_step == side));
        if (lost) {
          dx[i] = 0.0;
          held = true;
        } else if (!moving_inward) {  // an impact (dx outward), or at rest there
          const bool impact = dx[i] * side > 0.0;
          const double r = impact && reinit ? reinit[i * reinit_stride_] : 0.0;
          held = SettleOnLimit(c.t, side, ui, r, &dx[i]);
          if (dx[i] * side < 0.0) bounced[i] = side;
        }
        x[i] = side > 0 ? upper_[i] : lower_[i];
      }
      mode_x[i] = held ? side : 0;
    }
    if (limited_dx_) {
      // While x is held, dx is 0 and held with it. Otherwise dx is held at a limit while u
      // pushes outward (the Integrator's limits), and moved back onto it past one.
      int side = 0;
      if (!held) {
        const int zc = zc_dx + 3 * i;
        if (dx[i] >= upper_dx_[i] || zc_crossed(c, zc + 1)) {
          side = 1;
        } else if (dx[i] <= lower_dx_[i] || zc_crossed(c, zc)) {
          side = -1;
        }
        dx[i] = std::clamp(dx[i], lower_dx_[i], upper_dx_[i]);
      }
      mode_dx[i] = side * ui > 0.0 ? side : 0;
      if (mode_dx[i] != 0) dx[i] = mode_dx[i] > 0 ? upper_dx_[i] : lower_dx_[i];
    }
    if (x[i] != x_before || dx[i] != dx_before) c.states_reset = true;
  }
}

void SecondOrderIntegrator::DoCalcDerivatives(Context& c) const {
  const double* u = in(c, 0);
  const double* x = this->x(c);
  const double* dx = x + width_;
  double* xdot = this->xdot(c);
  double* dxdot = xdot + width_;
  for (int i = 0; i < width_; ++i) {
    xdot[i] = dx[i];
    dxdot[i] = u[i * u_stride_];
  }
  const int* mode_x = modes(c);
  if (limited_x_) {
    for (int i = 0; i < width_; ++i) {
      if (mode_x[i] != 0) xdot[i] = dxdot[i] = 0.0;
    }
  }
  if (limited_dx_) {
    const int* mode_dx = mode_x + (limited_x_ ? width_ : 0);
    for (int i = 0; i < width_; ++i) {
      if (mode_dx[i] != 0) dxdot[i] = 0.0;
    }
  }
  if (reset_.level()) {
    const int* active = mode_x + width_ * ((limited_x_ ? 1 : 0) + (limited_dx_ ? 1 : 0));
    for (int i = 0; i < width_; ++i) {
      if (active[i * reset_stride_] != 0) xdot[i] = dxdot[i] = 0.0;  // held while it is on
    }
  }
}

void SecondOrderIntegrator::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  const double* x = this->x(c);
  const double* dx = x + width_;
  const int* mode_x = modes(c);
  double* z = zc(c);
  if (limited_x_) {
    for (int i = 0; i < width_; ++i, z += 3) {
      internal::LimitZeroCrossings(mode_x[i] != 0, x[i], lower_[i], upper_[i], u[i * u_stride_], z);
    }
  }
  if (limited_dx_) {
    const int* mode_dx = mode_x + (limited_x_ ? width_ : 0);
    for (int i = 0; i < width_; ++i, z += 3) {
      const bool x_held = limited_x_ && mode_x[i] != 0;
      if (x_held) {
        z[0] = z[1] = z[2] = 1.0;  // dx is 0 with x; x's own functions watch u
      } else {
        internal::LimitZeroCrossings(mode_dx[i] != 0, dx[i], lower_dx_[i], upper_dx_[i],
                                     u[i * u_stride_], z);
      }
    }
  }
  if (in_reset_ >= 0) {
    const double* r = in(c, in_reset_);
    for (int j = 0; j < reset_width_; ++j) z[j] = r[j];
  }
}

BlockType SecondOrderIntegratorType() {
  BlockType t;
  t.name = "SecondOrderIntegrator";
  t.category = "Math and continuous";
  t.summary = "Integrates its input twice: position and velocity states that know of each other.";
  t.doc =
      "x'' = u: continuous states x and dx = x', x(t0) = x0, dx(t0) = dx0 (continuous sample "
      "time; u is not direct feedthrough). Outputs x and dx. The width comes from u, or from "
      "a vector parameter (a scalar u expands).\n"
      "Limits on x: with a finite `lower`/`upper`, x stays in [lower, upper]. When x reaches "
      "a limit moving outward (an impact), dx becomes 0, or with reinit_dx = true the value "
      "of input `dx_reinit` if that points back inside (a bounce: feed it -e dx for a "
      "coefficient of restitution e). With dx = 0, x is held on the limit (x' = dx' = 0) "
      "while u pushes outward and leaves when u turns. A bounce that would last no longer "
      "than max(min_flight, 1024 eps max(1, |t|)) s, its length taken as 2 |dx| / |u| under "
      "the present push, is not begun: every later bounce would end within it, so x comes to "
      "rest on the limit there, at the Zeno time to within that length. A flight the solver "
      "lost ends the same way: a step that ends past the limit, or on a located crossing of "
      "it, with x still moving inward (the exact flight never does), or past it one step "
      "after a bounce without a located crossing. A bouncing ball thus rests at its Zeno "
      "time and stays, where two Integrators lose it through the floor. With a fixed-step "
      "solver, impacts are found a step late (x is clamped there) and each bounce gains "
      "what the overshoot added: set min_flight to several steps for the ball to come to "
      "rest.\n"
      "Limits on dx: with a finite `lower_dx`/`upper_dx`, dx is held at a limit while u pushes "
      "outward (dx' = 0; x' = dx goes on), as the Integrator's limits. When x is limited, the "
      "dx limits must allow 0.\n"
      "Events: zero-crossing functions x - lower, x - upper (free) or u (held), and likewise "
      "for dx, so variable-step solvers locate hits, and leaving a limit; modes are chosen and "
      "dx_reinit is read at major steps, after the outputs: the row at an impact shows dx "
      "just before it, and dx may feed dx_reinit without an algebraic loop. (Simulink "
      "reinitializes dx to its initial condition instead; a separate input keeps the two "
      "apart and the feedback free of a loop.)\n"
      "Extensions, as the Integrator's: reset = rising | falling | either | level adds input "
      "`reset` (scalar or per element); where it fires, x = x0 and dx = dx0 and the outputs "
      "show them; level holds both (x' = dx' = 0) while reset != 0. x0_source / dx0_source "
      "= external add inputs `x0` / `dx0`, read at the first major step (the states are 0 "
      "before) and at every reset.";
  t.reference =
      "Simulink Second-Order Integrator (limits on x and dx/dt, 'Reinitialize dx/dt when x "
      "reaches saturation'); the resting rule is twinblocks' own, stated above";
  t.params = {{"x0", ParamKind::kVector, "0", "initial x, scalar or per element"},
              {"dx0", ParamKind::kVector, "0", "initial dx, scalar or per element"},
              {"lower", ParamKind::kVector, "-inf", "lower limit of x, scalar or per element"},
              {"upper", ParamKind::kVector, "inf", "upper limit of x, scalar or per element"},
              {"lower_dx", ParamKind::kVector, "-inf", "lower limit of dx, scalar or per element"},
              {"upper_dx", ParamKind::kVector, "inf", "upper limit of dx, scalar or per element"},
              {"reinit_dx",
               ParamKind::kWord,
               "false",
               "true: at an impact on an x limit, dx takes input dx_reinit's value",
               {"false", "true"}},
              {"min_flight", ParamKind::kScalar, "0",
               "s, bounces no longer than this (or than the clock resolves) are not begun"},
              {"reset", ParamKind::kWord, "none", "external reset trigger",
               internal::ResetTrigger::Words()},
              {"x0_source",
               ParamKind::kWord,
               "internal",
               "internal: parameter x0; external: input x0",
               {"internal", "external"}},
              {"dx0_source",
               ParamKind::kWord,
               "internal",
               "internal: parameter dx0; external: input dx0",
               {"internal", "external"}},
              internal::AbsoluteToleranceParam("abs_tol_x", "x"),
              internal::AbsoluteToleranceParam("abs_tol_dx", "dx")};
  t.inputs = {{"u", "the second derivative of x"},
              {"dx_reinit", "dx after an impact on an x limit (reinit_dx = true)"},
              {"reset", "reset trigger (reset != none), scalar or per element"},
              {"x0", "initial x (x0_source = external), scalar or per element"},
              {"dx0", "initial dx (dx0_source = external), scalar or per element"}};
  t.outputs = {{"x", "the position state"}, {"dx", "its derivative, the velocity state"}};
  t.create = [](const Params& p) { return std::make_unique<SecondOrderIntegrator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
