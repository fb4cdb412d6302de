#include "blocks/robotics/trajectory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

Trajectory::Trajectory(const Params& params) : t0_(params.Scalar("t0")), T_(params.Scalar("T")) {
  if (!(T_ > 0.0) || !std::isfinite(T_)) {
    throw BlockError("parameter 'T' must be a positive duration in s, got " + FormatValue(T_), "T");
  }
  if (!std::isfinite(t0_)) throw BlockError("parameter 't0' must be finite", "t0");
  const Eigen::VectorXd q0 = params.Vector("q0");
  const Eigen::VectorXd qr = params.Vector("qr");
  const int w = internal::CommonParamWidth({{"q0", &q0}, {"qr", &qr}});
  q0_ = internal::Expand(q0, w);
  qr_ = internal::Expand(qr, w);
  DeclareOutput("q", w);
  DeclareOutput("qd", w);
  DeclareOutput("qdd", w);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareBreakpoints();
  DeclareTimeDependence();
}

void Trajectory::DoCalcOutputs(Context& c, int stage) const {
  double* q = out(c, 0);
  double* qd = out(c, 1);
  double* qdd = out(c, 2);
  const int n = static_cast<int>(q0_.size());
  // s is the fraction of the motion done, clamped so that the holds before and after come
  // out of the same formula (its velocity and acceleration vanish at s = 0 and s = 1).
  const double s = std::clamp((c.t - t0_) / T_, 0.0, 1.0);
  const double phase = 2.0 * M_PI * s;
  // Exactly 1 at the end, so that the hold is q0 + qr to the last bit.
  const double shape = s >= 1.0 ? 1.0 : s - std::sin(phase) / (2.0 * M_PI);
  const bool moving = s > 0.0 && s < 1.0;
  const double rate = moving ? (1.0 - std::cos(phase)) / T_ : 0.0;
  const double accel = moving ? 2.0 * M_PI * std::sin(phase) / (T_ * T_) : 0.0;
  for (int i = 0; i < n; ++i) {
    q[i] = q0_[i] + qr_[i] * shape;
    qd[i] = qr_[i] * rate;
    qdd[i] = qr_[i] * accel;
  }
}

double Trajectory::DoNextBreakpoint(const Context& c, double t) const {
  if (t < t0_) return t0_;
  if (t < t0_ + T_) return t0_ + T_;
  return std::numeric_limits<double>::infinity();
}

BlockType TrajectoryType() {
  BlockType t;
  t.name = "Trajectory";
  t.category = "Robotics";
  t.summary = "Cycloidal joint trajectory from q0 by the rise qr in time T, with qd and qdd.";
  t.doc =
      "q = q0 + qr ((t - t0)/T - sin(2 pi (t - t0)/T) / (2 pi)) for t0 <= t <= t0 + T; "
      "q = q0 before t0 and q0 + qr after t0 + T (continuous sample time). The velocity "
      "qd = qr (1 - cos(2 pi (t - t0)/T)) / T and acceleration qdd = 2 pi qr sin(2 pi "
      "(t - t0)/T) / T^2 are analytic and zero outside the motion, so inverse dynamics of "
      "the trajectory needs no numerical derivative. Velocity and acceleration start and end "
      "at zero; t0 and t0 + T are breakpoints (the jerk jumps there), so every solver lands "
      "on them. q0 and qr may be vectors of equal width (a scalar expands); the outputs have "
      "that width.";
  t.reference =
      "Boschetti & Sinico 2024, \"Designing Digital Twins of Robots Using Simscape Multibody\" "
      "(Robotics), eq. 23 (cycloidal motion "
      "law); compare Robotics System Toolbox Polynomial "
      "Trajectory";
  t.params = {{"q0", ParamKind::kVector, "0", "start position, rad (or m)"},
              {"qr", ParamKind::kVector, "", "rise: final minus start position", {}, true},
              {"t0", ParamKind::kScalar, "0", "start time of the motion, s"},
              {"T", ParamKind::kScalar, "2", "duration of the motion, s (> 0)"}};
  t.outputs = {{"q", "position, width of q0/qr"},
               {"qd", "velocity, per s"},
               {"qdd", "acceleration, per s^2"}};
  t.create = [](const Params& p) { return std::make_unique<Trajectory>(p); };
  return t;
}

}  // namespace twinblocks::blocks
