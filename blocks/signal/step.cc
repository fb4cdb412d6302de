#include "blocks/signal/step.h"

#include <limits>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Step::Step(const Params& params) : time_(params.Scalar("time")) {
  const Eigen::VectorXd before = params.Vector("before");
  const Eigen::VectorXd after = params.Vector("after");
  const int w = internal::CommonParamWidth({{"before", &before}, {"after", &after}});
  before_ = internal::Expand(before, w);
  after_ = internal::Expand(after, w);
  DeclareOutput("y", w);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareBreakpoints();
  DeclareModes(1);  // 1 once t >= time
}

void Step::DoInitialize(Context& c) const { modes(c)[0] = c.t >= time_ ? 1 : 0; }

void Step::DoCalcOutputs(Context& c, int stage) const {
  int* mode = modes(c);
  if (c.major) mode[0] = c.t >= time_ ? 1 : 0;
  const std::vector<double>& v = mode[0] != 0 ? after_ : before_;
  double* y = out(c, 0);
  const int n = static_cast<int>(v.size());
  for (int i = 0; i < n; ++i) y[i] = v[i];
}

double Step::DoNextBreakpoint(const Context& c, double t) const {
  return t < time_ ? time_ : std::numeric_limits<double>::infinity();
}

BlockType StepType() {
  BlockType t;
  t.name = "Step";
  t.category = "Sources";
  t.summary = "Jumps from `before` to `after` at `time`.";
  t.doc =
      "y = before for t < time, y = after for t >= time (continuous sample time). The step "
      "time is a breakpoint: every solver lands on it exactly and the major step there "
      "already outputs `after`. The level is a mode chosen at major steps and held inside "
      "solver steps. `before` and `after` may be vectors of equal width (scalars expand).";
  t.reference = "Simulink Step";
  t.params = {{"time", ParamKind::kScalar, "1", "step time, s"},
              {"before", ParamKind::kVector, "0", "initial value"},
              {"after", ParamKind::kVector, "1", "final value"}};
  t.outputs = {{"y", "the step, width of before/after"}};
  t.create = [](const Params& p) { return std::make_unique<Step>(p); };
  return t;
}

}  // namespace twinblocks::blocks
