#include "blocks/signal/sine.h"

#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Sine::Sine(const Params& params) {
  const Eigen::VectorXd a = params.Vector("amplitude");
  const Eigen::VectorXd f = params.Vector("frequency");
  const Eigen::VectorXd p = params.Vector("phase");
  const Eigen::VectorXd b = params.Vector("bias");
  const int w = internal::CommonParamWidth(
      {{"amplitude", &a}, {"frequency", &f}, {"phase", &p}, {"bias", &b}});
  amplitude_ = internal::Expand(a, w);
  frequency_ = internal::Expand(f, w);
  phase_ = internal::Expand(p, w);
  bias_ = internal::Expand(b, w);
  DeclareOutput("y", w);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareTimeDependence();
}

void Sine::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int n = static_cast<int>(bias_.size());
  for (int i = 0; i < n; ++i) {
    y[i] = amplitude_[i] * std::sin(frequency_[i] * c.t + phase_[i]) + bias_[i];
  }
}

BlockType SineType() {
  BlockType t;
  t.name = "Sine";
  t.category = "Sources";
  t.summary = "A time-based sine wave.";
  t.doc =
      "y = amplitude * sin(frequency * t + phase) + bias, with frequency in rad/s and phase "
      "in rad (continuous sample time). Each parameter may be a vector; scalars expand to "
      "the common width.";
  t.reference = "Simulink Sine Wave (time based)";
  t.params = {{"amplitude", ParamKind::kVector, "1", "peak amplitude"},
              {"frequency", ParamKind::kVector, "1", "angular frequency, rad/s"},
              {"phase", ParamKind::kVector, "0", "phase at t = 0, rad"},
              {"bias", ParamKind::kVector, "0", "offset added to the sine"}};
  t.outputs = {{"y", "the sine, width of the parameters"}};
  t.create = [](const Params& p) { return std::make_unique<Sine>(p); };
  return t;
}

}  // namespace twinblocks::blocks
