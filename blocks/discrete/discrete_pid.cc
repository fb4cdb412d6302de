#include "blocks/discrete/discrete_pid.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

using AntiWindup = internal::PidOutputLimits::AntiWindup;

DiscretePid::DiscretePid(const Params& params, bool two_dof)
    : kp_(params.Scalar("Kp")),
      ki_(params.Scalar("Ki")),
      kd_(params.Scalar("Kd")),
      n_(params.Scalar("N")),
      integrator_(internal::IntegrationMethod::FromWord(params.Word("integrator_method"),
                                                        "integrator_method")),
      filter_(internal::IntegrationMethod::FromWord(params.Word("filter_method"), "filter_method")),
      limits_(internal::PidOutputLimits::Read(params, params.Scalar("Ki") != 0.0)),
      two_dof_(two_dof) {
  if (std::isnan(n_) || n_ <= 0.0) {
    throw BlockError("parameter 'N' must be a positive filter coefficient in rad/s, or inf", "N");
  }
  filtered_ = std::isfinite(n_);
  if (!filtered_ && filter_.kind != internal::IntegrationMethod::Kind::kBackwardEuler) {
    // Without a filter, Kd F(z)^-1 is a causal, stable derivative only for backward Euler:
    // forward Euler would need the next sample, trapezoidal alternates (a pole at z = -1).
    throw BlockError("filter_method = " + params.Word("filter_method") +
                         " needs a finite derivative filter coefficient N (N = inf is the "
                         "unfiltered backward difference)",
                     "filter_method");
  }
  // The inputs reach u at once through P, D and a backward-Euler or trapezoidal integral.
  const bool direct_integral = ki_ != 0.0 && integrator_.feedthrough();
  feedthrough_ = kp_ != 0.0 || kd_ != 0.0 || direct_integral;
  if (two_dof_) {
    b_ = params.Scalar("b");
    c_ = params.Scalar("c");
    if (!std::isfinite(b_)) throw BlockError("parameter 'b' must be a finite weight", "b");
    if (!std::isfinite(c_)) throw BlockError("parameter 'c' must be a finite weight", "c");
    r_feedthrough_ = kp_ * b_ != 0.0 || kd_ * c_ != 0.0 || direct_integral;
    DeclareInput("r", kDynamicWidth, r_feedthrough_ ? kFeedthrough : kNoFeedthrough);
    DeclareInput("y", kDynamicWidth, feedthrough_ ? kFeedthrough : kNoFeedthrough);
  } else {
    DeclareInput("e", kDynamicWidth, feedthrough_ ? kFeedthrough : kNoFeedthrough);
  }
  DeclareOutput("u");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/true);
}

void DiscretePid::DoConfigure(const std::vector<int>& input_widths) {
  width_ = two_dof_ ? CommonWidth(input_widths) : input_widths[0];
  stride0_ = internal::StrideOf(input_widths[0]);
  stride1_ = two_dof_ ? internal::StrideOf(input_widths[1]) : 0;
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(2 * width_);
}

void DiscretePid::DoInitialize(Context& c) const {
  double* s = xd(c);
  for (int i = 0; i < 2 * width_; ++i) s[i] = 0.0;
}

DiscretePid::TermInputs DiscretePid::ReadTermInputs(const Context& c, int i,
                                                    bool direct_only) const {
  if (!two_dof_) {
    const double e = direct_only && !feedthrough_ ? 0.0 : in(c, 0)[i * stride0_];
    return {e, e, e};
  }
  const double r = direct_only && !r_feedthrough_ ? 0.0 : in(c, 0)[i * stride0_];
  const double y = direct_only && !feedthrough_ ? 0.0 : in(c, 1)[i * stride1_];
  return {b_ * r - y, r - y, c_ * r - y};
}

DiscretePid::Step DiscretePid::Evaluate(const Context& c, int i, const TermInputs& in) const {
  // The period is the resolved one (an inherited Ts is known only after compile).
  const double ts = sample_time().period;
  const double* s = xd(c);
  const double s_i = s[i], s_d = s[width_ + i];
  double d;
  if (filtered_) {
    // d = N (Kd d_in - F(z) d) with the filter's integrator F: solved for d at this hit, the
    // part of it F takes at once (now Ts d) included.
    d = n_ * (kd_ * in.d - s_d) / (1.0 + n_ * filter_.now * ts);
  } else {
    const double kd_ts = ts > 0.0 ? kd_ / ts : 0.0;
    d = kd_ts * (in.d - s_d);
  }
  const double p = kp_ * in.p;
  const double step = ki_ * ts * in.i;  // Ts times the integrator's input Ki i
  const double now = integrator_.now;
  // The sum in the order of the forward-Euler controller: Kp e + I + D.
  double v = now == 0.0 ? p + s_i + d : p + (s_i + now * step) + d;
  if (!limits_.limited()) return {v, step, d};
  double u = limits_.Clamp(v);
  if (u == v) return {u, step, d};
  switch (limits_.anti_windup) {
    case AntiWindup::kNone:
      return {u, step, d};
    case AntiWindup::kClamping:
      // Past a limit with the integrator's input pushing further: it integrates nothing at
      // this hit (decided on v as it would be with the input).
      if ((v - u) * step > 0.0) {
        v = p + s_i + d;
        return {limits_.Clamp(v), 0.0, d};
      }
      return {u, step, d};
    case AntiWindup::kBackCalculation: {
      // The integrator's input Ki i + Kb (u - v). With backward Euler or trapezoidal, v holds
      // a share `now` of it: v = v0 + g (u - v), g = now Kb Ts, solved for v (u, the limit,
      // stays the same: v - u keeps its sign).
      const double kb_ts = limits_.kb * ts;
      const double g = now * kb_ts;
      if (g != 0.0) v = (v + g * u) / (1.0 + g);
      return {u, step + kb_ts * (u - v), d};
    }
  }
  return {u, step, d};
}

void DiscretePid::DoCalcOutputs(Context& c, int stage) const {
  double* u = out(c, 0);
  for (int i = 0; i < width_; ++i) {
    u[i] = Evaluate(c, i, ReadTermInputs(c, i, /*direct_only=*/true)).u;
  }
}

void DiscretePid::DoUpdate(Context& c) const {
  const double ts = sample_time().period;
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) {
    const TermInputs in = ReadTermInputs(c, i, /*direct_only=*/false);
    const Step step = Evaluate(c, i, in);
    s[i] += step.integral;
    s[width_ + i] = filtered_ ? s[width_ + i] + ts * step.d : in.d;
  }
}

std::string DiscretePidOptionsDoc() {
  return "Integration methods (F(z) stands for 1/s): integrator_method for the integral, "
         "filter_method for the derivative filter: forward-euler F = Ts/(z-1), backward-euler "
         "F = Ts z/(z-1), trapezoidal F = (Ts/2)(z+1)/(z-1). The integral term is Ki F(z) "
         "applied to its input; the derivative term is Kd N / (1 + N F(z)) applied to its "
         "input with a finite N, and Kd (z-1)/(Ts z) (the backward difference, backward-euler "
         "only) with N = inf, the default.\n"
         "Output limits: with a finite lower or upper, u = min(max(v, lower), upper) of the "
         "sum v. anti_windup = clamping: at a hit where v is past a limit and the integrator's "
         "input Ki i pushes it further (v taken with that input), the integrator's input is 0 "
         "for this hit. anti_windup = back-calculation: Kb (u - v) is added to the "
         "integrator's input; with backward-euler or trapezoidal, v depends on that input "
         "itself, and the block solves v = v0 + a Kb Ts (u - v) exactly (a = 1, 1/2). "
         "Anti-windup needs a finite limit and Ki != 0.\n"
         "Ts = -1 inherits the input's (discrete) rate, and its period is used in the "
         "equations.";
}

namespace {

/// The parameters DiscretePID and DiscretePID2DOF share.
std::vector<ParamSpec> DiscretePidParams() {
  std::vector<ParamSpec> params = {
      {"Kp", ParamKind::kScalar, "1", "proportional gain"},
      {"Ki", ParamKind::kScalar, "0", "integral gain, 1/s"},
      {"Kd", ParamKind::kScalar, "0", "derivative gain, s"},
      {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
      {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"},
      {"N", ParamKind::kScalar, "inf",
       "derivative filter coefficient, rad/s; inf: the unfiltered backward difference"},
      {"integrator_method", ParamKind::kWord, "forward-euler", "method of the integral term",
       internal::IntegrationMethod::Words()},
      {"filter_method", ParamKind::kWord, "backward-euler",
       "method of the derivative filter (forward-euler and trapezoidal need a finite N)",
       internal::IntegrationMethod::Words()}};
  for (ParamSpec& p : internal::PidOutputLimits::Specs()) params.push_back(std::move(p));
  return params;
}

}  // namespace

BlockType DiscretePidType() {
  BlockType t;
  t.name = "DiscretePID";
  t.category = "Discrete and logic";
  t.summary = "Discrete PID controller, parallel form.";
  t.doc =
      "At each hit t_k = offset + k Ts, with the defaults: u[k] = Kp e[k] + I[k] + Kd (e[k] - "
      "e[k-1]) / Ts, then I[k+1] = I[k] + Ki Ts e[k] (forward-Euler integrator) and e[k-1] "
      "<- e[k] (backward-difference derivative), with I[0] = 0 and e[-1] = 0. In z terms "
      "C(z) = Kp + Ki Ts / (z - 1) + Kd (z - 1) / (Ts z). Element-wise over e. e is direct "
      "feedthrough unless Kp = Kd = 0 and the integral is forward-euler (or Ki = 0).\n" +
      DiscretePidOptionsDoc();
  t.reference =
      "Simulink Discrete PID Controller (parallel form; integrator and filter methods; "
      "output saturation with anti-windup clamping or back-calculation, Kb). Differs: the "
      "default derivative is unfiltered (N = inf, filter_method = backward-euler; Simulink's "
      "default filter method is forward Euler). Set-point weighting: DiscretePID2DOF.";
  t.params = DiscretePidParams();
  t.inputs = {{"e", "control error, any width"}};
  t.outputs = {{"u", "control signal, width of e"}};
  t.create = [](const Params& p) { return std::make_unique<DiscretePid>(p, /*two_dof=*/false); };
  return t;
}

}  // namespace twinblocks::blocks
