#include "blocks/discrete/discrete_pid.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DiscretePid::DiscretePid(const Params& params)
    : kp_(params.Scalar("Kp")), ki_(params.Scalar("Ki")), kd_(params.Scalar("Kd")) {
  DeclareInput("e");
  DeclareOutput("u");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/true);
}

void DiscretePid::DoConfigure(const std::vector<int>& input_widths) {
  width_ = input_widths[0];
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(2 * width_);
}

void DiscretePid::DoInitialize(Context& c) const {
  double* s = xd(c);
  for (int i = 0; i < 2 * width_; ++i) s[i] = 0.0;
}

void DiscretePid::DoCalcOutputs(Context& c, int stage) const {
  // The period is the resolved one (an inherited Ts is known only after compile).
  const double ts = sample_time().period;
  const double* e = in(c, 0);
  const double* s = xd(static_cast<const Context&>(c));
  const double* integral = s;
  const double* e_prev = s + width_;
  double* u = out(c, 0);
  const double kd_ts = ts > 0.0 ? kd_ / ts : 0.0;
  for (int i = 0; i < width_; ++i) {
    u[i] = kp_ * e[i] + integral[i] + kd_ts * (e[i] - e_prev[i]);
  }
}

void DiscretePid::DoUpdate(Context& c) const {
  const double ts = sample_time().period;
  const double* e = in(c, 0);
  double* s = xd(c);
  for (int i = 0; i < width_; ++i) {
    s[i] += ki_ * ts * e[i];
    s[width_ + i] = e[i];
  }
}

BlockType DiscretePidType() {
  BlockType t;
  t.name = "DiscretePID";
  t.category = "Discrete and logic";
  t.summary = "Discrete PID controller, parallel form.";
  t.doc =
      "At each hit t_k = offset + k Ts: u[k] = Kp e[k] + I[k] + Kd (e[k] - e[k-1]) / Ts, then "
      "I[k+1] = I[k] + Ki Ts e[k] (forward-Euler integrator) and e[k-1] <- e[k] "
      "(backward-difference derivative), with I[0] = 0 and e[-1] = 0. In z terms "
      "C(z) = Kp + Ki Ts / (z - 1) + Kd (z - 1) / (Ts z). Element-wise over e; direct "
      "feedthrough. Ts = -1 inherits the input's (discrete) rate, and its period is used in "
      "the equations.";
  t.reference =
      "Simulink Discrete PID Controller (parallel, forward Euler integrator, backward Euler "
      "filter-free derivative)";
  t.params = {{"Kp", ParamKind::kScalar, "1", "proportional gain"},
              {"Ki", ParamKind::kScalar, "0", "integral gain, 1/s"},
              {"Kd", ParamKind::kScalar, "0", "derivative gain, s"},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"e", "control error, any width"}};
  t.outputs = {{"u", "control signal, width of e"}};
  t.create = [](const Params& p) { return std::make_unique<DiscretePid>(p); };
  return t;
}

}  // namespace twinblocks::blocks
