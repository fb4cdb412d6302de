#include "blocks/signal/pid.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

using AntiWindup = internal::PidOutputLimits::AntiWindup;

Pid::Pid(const Params& params, bool two_dof)
    : kp_(params.Scalar("Kp")),
      ki_(params.Scalar("Ki")),
      kd_(params.Scalar("Kd")),
      n_(params.Scalar("N")),
      limits_(internal::PidOutputLimits::Read(params, params.Scalar("Ki") != 0.0)),
      two_dof_(two_dof) {
  has_i_ = ki_ != 0.0;
  has_d_ = kd_ != 0.0;
  if (has_d_ && !(n_ > 0.0 && std::isfinite(n_))) {
    throw BlockError("parameter 'N' must be positive and finite when Kd != 0", "N");
  }
  limited_ = limits_.limited();
  clamping_ = limits_.anti_windup == AntiWindup::kClamping;
  feedthrough_ = kp_ != 0.0 || has_d_;
  const unsigned direct = feedthrough_ ? kFeedthrough : kNoFeedthrough;
  if (two_dof_) {
    b_ = params.Scalar("b");
    c_ = params.Scalar("c");
    if (!std::isfinite(b_)) throw BlockError("parameter 'b' must be a finite weight", "b");
    if (!std::isfinite(c_)) throw BlockError("parameter 'c' must be a finite weight", "c");
    // r reaches u at once only through the weighted P and D terms.
    r_feedthrough_ = kp_ * b_ != 0.0 || (has_d_ && c_ != 0.0);
    DeclareInput("r", kDynamicWidth, r_feedthrough_ ? kFeedthrough : kNoFeedthrough);
    DeclareInput("y", kDynamicWidth, direct);
  } else {
    DeclareInput("e", kDynamicWidth, direct);
  }
  DeclareOutput("u");
  DeclareSampleTime(SampleTime::Continuous());
  // The clamp is chosen once every output (the integrator's input) is known.
  if (clamping_) DeclareUpdate();
}

void Pid::DoConfigure(const std::vector<int>& input_widths) {
  width_ = two_dof_ ? CommonWidth(input_widths) : input_widths[0];
  stride0_ = internal::StrideOf(input_widths[0]);
  stride1_ = two_dof_ ? internal::StrideOf(input_widths[1]) : 0;
  SetOutputWidth(0, width_);
  DeclareContinuousStates((has_i_ ? width_ : 0) + (has_d_ ? width_ : 0));
  if (limited_) {
    DeclareModes((clamping_ ? 2 : 1) * width_);
    DeclareZeroCrossings((clamping_ ? 3 : 2) * width_);
  }
}

void Pid::DoInitialize(Context& c) const {
  double* x = this->x(c);
  for (int i = 0; i < num_continuous_states(); ++i) x[i] = 0.0;
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

Pid::TermInputs Pid::ReadTermInputs(const Context& c, int i, bool direct_only) const {
  if (!two_dof_) {
    const double e = direct_only && !feedthrough_ ? 0.0 : in(c, 0)[i * stride0_];
    return {e, e, e};
  }
  const double r = direct_only && !r_feedthrough_ ? 0.0 : in(c, 0)[i * stride0_];
  const double y = direct_only && !feedthrough_ ? 0.0 : in(c, 1)[i * stride1_];
  return {b_ * r - y, r - y, c_ * r - y};
}

double Pid::Unsaturated(const Context& c, int i, const TermInputs& in) const {
  const double* x = this->x(c);
  const double* f = x + (has_i_ ? width_ : 0);
  double v = has_i_ ? ki_ * x[i] : 0.0;
  if (!feedthrough_) return v;
  v += kp_ * in.p;
  if (has_d_) v += kd_ * n_ * (in.d - f[i]);
  return v;
}

void Pid::DoCalcOutputs(Context& c, int stage) const {
  double* u = out(c, 0);
  int* region = modes(c);
  for (int i = 0; i < width_; ++i) {
    const double v = Unsaturated(c, i, ReadTermInputs(c, i, /*direct_only=*/true));
    if (!limited_) {
      u[i] = v;
      continue;
    }
    // The region is chosen at major steps and held inside solver steps, so that u stays
    // smooth within a step; the zero crossings v - upper, v - lower end a step where it
    // changes.
    if (c.major) region[i] = v > limits_.upper ? 1 : (v < limits_.lower ? -1 : 0);
    u[i] = region[i] > 0 ? limits_.upper : (region[i] < 0 ? limits_.lower : v);
  }
}

void Pid::DoUpdate(Context& c) const {
  // Clamping: the integrator stops while v is past a limit and its input Ki i pushes v
  // further past it; it starts again where either ends (both are zero crossings).
  int* region = modes(c);
  int* clamped = region + width_;
  for (int i = 0; i < width_; ++i) {
    const double push = ki_ * ReadTermInputs(c, i, /*direct_only=*/false).i;
    clamped[i] = region[i] * push > 0.0 ? 1 : 0;
  }
}

void Pid::DoCalcDerivatives(Context& c) const {
  const double* x = this->x(c);
  double* xdot = this->xdot(c);
  const int* region = modes(c);
  int k = 0;
  if (has_i_) {
    for (int i = 0; i < width_; ++i) {
      const TermInputs in = ReadTermInputs(c, i, /*direct_only=*/false);
      double rate = in.i;
      if (limited_ && region[i] != 0) {
        if (clamping_) {
          if (region[width_ + i] != 0) rate = 0.0;
        } else if (limits_.anti_windup == AntiWindup::kBackCalculation) {
          // xi = I / Ki: the integral's input Ki i + Kb (u - v), divided by Ki.
          const double u = region[i] > 0 ? limits_.upper : limits_.lower;
          rate += limits_.kb / ki_ * (u - Unsaturated(c, i, in));
        }
      }
      xdot[k++] = rate;
    }
  }
  if (has_d_) {
    const double* f = x + (has_i_ ? width_ : 0);
    for (int i = 0; i < width_; ++i) {
      xdot[k++] = n_ * (ReadTermInputs(c, i, /*direct_only=*/false).d - f[i]);
    }
  }
}

void Pid::DoCalcZeroCrossings(Context& c) const {
  if (!limited_) return;
  double* z = zc(c);
  const int* region = modes(c);
  const int per = clamping_ ? 3 : 2;
  for (int i = 0; i < width_; ++i, z += per) {
    const TermInputs in = ReadTermInputs(c, i, /*direct_only=*/false);
    if (clamping_ && region[width_ + i] != 0) {
      // Clamped: only the integrator's input turning inward is located. v falling back
      // inside is seen at the next major step: located, it would chatter without end where
      // the integrator, once free, pushes v straight back past the limit (a sliding mode
      // on v = limit, which the clamp then follows at the solver's steps).
      z[0] = z[1] = 1.0;
      z[2] = ki_ * in.i;
      continue;
    }
    const double v = Unsaturated(c, i, in);
    z[0] = v - limits_.upper;
    z[1] = v - limits_.lower;
    // Past a limit, the integrator's input turning outward starts the clamp.
    if (clamping_) z[2] = region[i] != 0 ? ki_ * in.i : 1.0;
  }
}

namespace {

/// What PID and PID2DOF share in their docs.
constexpr const char* kPidLimitsDoc =
    "Output limits: with a finite lower or upper, u = min(max(v, lower), upper) of the sum v "
    "above. The region (below, inside, above) is a mode per element chosen at major steps "
    "and held inside solver steps, with zero crossings v - upper and v - lower (as "
    "Saturation). anti_windup = clamping: while v is past a limit and Ki times the "
    "integrator's input pushes it further, xi' = 0 (a mode chosen at major steps; the "
    "integrator's input is a zero crossing while past a limit). While clamped, v returning "
    "inside is taken at the next major step, not located: where the free integrator would "
    "push v straight back (a sliding mode on v = limit) the clamp then switches at the "
    "solver's steps instead of without end. anti_windup = "
    "back-calculation: the integral's input gains Kb (u - v), i.e. xi' += (Kb / Ki) (u - "
    "v). Anti-windup needs a finite limit and Ki != 0.";

}  // namespace

BlockType PidType() {
  BlockType t;
  t.name = "PID";
  t.category = "Math and continuous";
  t.summary = "Continuous PID controller, parallel form, filtered derivative.";
  t.doc = std::string(
              "u = Kp e + Ki xi + Kd N (e - f), with xi' = e (the integral) and f' = N (e - f) "
              "(the derivative filter; Kd N (e - f) -> Kd de/dt as N -> inf), both zero at the "
              "start. In Laplace terms C(s) = Kp + Ki/s + Kd N s / (s + N). Element-wise over "
              "e. States exist only for the terms in use (Ki != 0, Kd != 0); e is direct "
              "feedthrough unless Kp = Kd = 0. Continuous sample time.\n") +
          kPidLimitsDoc;
  t.reference =
      "Simulink PID Controller (continuous, parallel form, filter coefficient N; output "
      "saturation with anti-windup clamping or back-calculation). Set-point weighting: "
      "PID2DOF.";
  t.params = {{"Kp", ParamKind::kScalar, "1", "proportional gain"},
              {"Ki", ParamKind::kScalar, "0", "integral gain, 1/s"},
              {"Kd", ParamKind::kScalar, "0", "derivative gain, s"},
              {"N", ParamKind::kScalar, "100", "derivative filter coefficient, rad/s"}};
  for (ParamSpec& p : internal::PidOutputLimits::Specs()) t.params.push_back(std::move(p));
  t.inputs = {{"e", "control error, any width"}};
  t.outputs = {{"u", "control signal, width of e"}};
  t.create = [](const Params& p) { return std::make_unique<Pid>(p, /*two_dof=*/false); };
  return t;
}

std::string PidLimitsDoc() { return kPidLimitsDoc; }

}  // namespace twinblocks::blocks
