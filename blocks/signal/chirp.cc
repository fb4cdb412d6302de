#include "blocks/signal/chirp.h"

#include <cmath>
#include <memory>
#include <numbers>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/param_checks.h"

namespace twinblocks::blocks {

Chirp::Chirp(const Params& params) {
  const Eigen::VectorXd f0 = params.Vector("initial_frequency");
  const Eigen::VectorXd target_time = params.Vector("target_time");
  const Eigen::VectorXd f1 = params.Vector("target_frequency");
  internal::CheckParamValues("initial_frequency", f0, internal::ValueRange::kFinite, "Hz");
  internal::CheckParamValues("target_frequency", f1, internal::ValueRange::kFinite, "Hz");
  internal::CheckParamValues("target_time", target_time, internal::ValueRange::kPositive, "s");
  const int w = internal::CommonParamWidth(
      {{"initial_frequency", &f0}, {"target_time", &target_time}, {"target_frequency", &f1}});
  f0_ = internal::Expand(f0, w);
  const std::vector<double> t1 = internal::Expand(target_time, w);
  const std::vector<double> f1w = internal::Expand(f1, w);
  for (int i = 0; i < w; ++i) sweep_.push_back((f1w[i] - f0_[i]) / t1[i]);
  DeclareOutput("y", w);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareTimeDependence();
}

void Chirp::DoCalcOutputs(Context& c, int stage) const {
  const double t = c.t;
  double* y = out(c, 0);
  const int n = static_cast<int>(f0_.size());
  for (int i = 0; i < n; ++i) {
    y[i] = std::sin(2.0 * std::numbers::pi * (f0_[i] + 0.5 * sweep_[i] * t) * t);
  }
}

BlockType ChirpType() {
  BlockType t;
  t.name = "Chirp";
  t.category = "Sources";
  t.summary = "A sine wave whose frequency rises linearly with time.";
  t.doc =
      "y = sin(2 pi (f0 + beta t / 2) t), beta = (f1 - f0) / T, with f0 = initial_frequency, f1 = "
      "target_frequency (Hz) and T = target_time (s): the phase is the integral of 2 pi f(t), so "
      "the instantaneous frequency f(t) = f0 + beta t is f0 at t = 0 and f1 at t = T, and goes on "
      "changing at the same rate after T. Time is measured from t = 0, whatever the run's start. "
      "Vector parameters give several chirps (scalars expand).";
  t.reference =
      "Simulink Chirp Signal (initial frequency, target time, frequency at target time, with its "
      "defaults)";
  t.params = {{"initial_frequency", ParamKind::kVector, "0.1", "f0, frequency at t = 0, Hz"},
              {"target_time", ParamKind::kVector, "100", "T, s (> 0)"},
              {"target_frequency", ParamKind::kVector, "1", "f1, frequency at t = T, Hz"}};
  t.outputs = {{"y", "the chirp, width of the parameters"}};
  t.create = [](const Params& p) { return std::make_unique<Chirp>(p); };
  return t;
}

}  // namespace twinblocks::blocks
