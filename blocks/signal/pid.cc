#include "blocks/signal/pid.h"

#include <cmath>
#include <memory>

namespace twinblocks::blocks {

Pid::Pid(const Params& params)
    : kp_(params.Scalar("Kp")),
      ki_(params.Scalar("Ki")),
      kd_(params.Scalar("Kd")),
      n_(params.Scalar("N")) {
  has_i_ = ki_ != 0.0;
  has_d_ = kd_ != 0.0;
  if (has_d_ && !(n_ > 0.0 && std::isfinite(n_))) {
    throw BlockError("parameter 'N' must be positive and finite when Kd != 0", "N");
  }
  feedthrough_ = kp_ != 0.0 || has_d_;
  DeclareInput("e", kDynamicWidth, feedthrough_ ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("u");
  DeclareSampleTime(SampleTime::Continuous());
}

void Pid::DoConfigure(const std::vector<int>& input_widths) {
  width_ = input_widths[0];
  SetOutputWidth(0, width_);
  DeclareContinuousStates((has_i_ ? width_ : 0) + (has_d_ ? width_ : 0));
}

void Pid::DoInitialize(Context& c) const {
  double* x = this->x(c);
  for (int i = 0; i < num_continuous_states(); ++i) x[i] = 0.0;
}

void Pid::DoCalcOutputs(Context& c, int stage) const {
  double* u = out(c, 0);
  const double* x = this->x(c);
  const double* xi = x;
  const double* f = x + (has_i_ ? width_ : 0);
  for (int i = 0; i < width_; ++i) u[i] = has_i_ ? ki_ * xi[i] : 0.0;
  if (!feedthrough_) return;  // e may not be computed yet: do not read it
  const double* e = in(c, 0);
  for (int i = 0; i < width_; ++i) {
    u[i] += kp_ * e[i];
    if (has_d_) u[i] += kd_ * n_ * (e[i] - f[i]);
  }
}

void Pid::DoCalcDerivatives(Context& c) const {
  const double* e = in(c, 0);
  const double* x = this->x(c);
  double* xdot = this->xdot(c);
  int k = 0;
  if (has_i_) {
    for (int i = 0; i < width_; ++i) xdot[k++] = e[i];
  }
  if (has_d_) {
    const double* f = x + (has_i_ ? width_ : 0);
    for (int i = 0; i < width_; ++i) xdot[k++] = n_ * (e[i] - f[i]);
  }
}

BlockType PidType() {
  BlockType t;
  t.name = "PID";
  t.category = "Math and continuous";
  t.summary = "Continuous PID controller, parallel form, filtered derivative.";
  t.doc =
      "u = Kp e + Ki xi + Kd N (e - f), with xi' = e (the integral) and f' = N (e - f) (the "
      "derivative filter; Kd N (e - f) -> Kd de/dt as N -> inf), both zero at the start. In "
      "Laplace terms C(s) = Kp + Ki/s + Kd N s / (s + N). Element-wise over e. States exist "
      "only for the terms in use (Ki != 0, Kd != 0); e is direct feedthrough unless "
      "Kp = Kd = 0. Continuous sample time.";
  t.reference = "Simulink PID Controller (continuous, parallel form, filter coefficient N)";
  t.params = {{"Kp", ParamKind::kScalar, "1", "proportional gain"},
              {"Ki", ParamKind::kScalar, "0", "integral gain, 1/s"},
              {"Kd", ParamKind::kScalar, "0", "derivative gain, s"},
              {"N", ParamKind::kScalar, "100", "derivative filter coefficient, rad/s"}};
  t.inputs = {{"e", "control error, any width"}};
  t.outputs = {{"u", "control signal, width of e"}};
  t.create = [](const Params& p) { return std::make_unique<Pid>(p); };
  return t;
}

}  // namespace twinblocks::blocks
