#include <cmath>
#include <memory>

#include "examples/plugins/example_blocks.h"

namespace twinblocks_example {

namespace {

using twinblocks::user::Context;
using twinblocks::user::Params;

// y[k] = (u[k] + u[k-1] + ... + u[k-n+1]) / n; the n - 1 previous samples are the discrete
// states, oldest first, 0 before the first hits.
class MovingAverage final : public twinblocks::user::Block {
 public:
  explicit MovingAverage(const Params& p) : n_(Window(p)) {
    DeclareInput("u");
    DeclareOutput("y");
    DeclareDiscreteStates(n_ - 1);
    DeclareSampleTime(p.Scalar("Ts"));
  }

  void CalcOutputs(Context& c) const override {
    const double* past = c.discrete_state();
    double sum = c.input(0)[0];
    for (int i = 0; i < n_ - 1; ++i) sum += past[i];
    c.output(0)[0] = sum / n_;
  }

  void Update(Context& c) const override {
    double* past = c.discrete_state();
    for (int i = 0; i + 1 < n_ - 1; ++i) past[i] = past[i + 1];
    if (n_ > 1) past[n_ - 2] = c.input(0)[0];
  }

 private:
  static int Window(const Params& p) {
    const double n = p.Scalar("n");
    if (!(n >= 1.0 && n <= 1e6 && n == std::floor(n))) {
      throw std::invalid_argument("parameter 'n' must be a whole number from 1 to 1e6 (samples)");
    }
    return static_cast<int>(n);
  }

  int n_;
};

}  // namespace

twinblocks::user::BlockType MovingAverageType() {
  twinblocks::user::BlockType t;
  t.name = "MovingAverage";
  t.category = "Example blocks";
  t.summary = "The mean of the last n samples of the input.";
  t.doc =
      "y[k] = (u[k] + u[k-1] + ... + u[k-n+1]) / n at t = k Ts, samples before the first taken "
      "as 0. Direct feedthrough.";
  t.reference = "Simulink Moving Average (sliding window, no initial values)";
  t.params = {{"n", twinblocks::user::ParamKind::kScalar, "4", "window, samples"},
              {"Ts", twinblocks::user::ParamKind::kScalar, "", "sample time, s", {}, true}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the mean of the last n samples"}};
  t.create = [](const Params& p) { return std::make_unique<MovingAverage>(p); };
  return t;
}

}  // namespace twinblocks_example
