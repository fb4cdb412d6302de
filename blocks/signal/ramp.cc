#include "blocks/signal/ramp.h"

#include <limits>
#include <memory>

namespace twinblocks::blocks {

Ramp::Ramp(const Params& params)
    : slope_(params.Scalar("slope")),
      start_(params.Scalar("start")),
      initial_(params.Scalar("initial")) {
  DeclareOutput("y", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareBreakpoints();
  DeclareTimeDependence();
  DeclareModes(1);  // 1 once t >= start
}

void Ramp::DoInitialize(Context& c) const { modes(c)[0] = c.t >= start_ ? 1 : 0; }

void Ramp::DoCalcOutputs(Context& c, int stage) const {
  int* mode = modes(c);
  if (c.major) mode[0] = c.t >= start_ ? 1 : 0;
  out(c, 0)[0] = mode[0] != 0 ? initial_ + slope_ * (c.t - start_) : initial_;
}

double Ramp::DoNextBreakpoint(const Context& c, double t) const {
  return t < start_ ? start_ : std::numeric_limits<double>::infinity();
}

BlockType RampType() {
  BlockType t;
  t.name = "Ramp";
  t.category = "Sources";
  t.summary = "A ramp of constant slope starting at `start`.";
  t.doc =
      "y = initial + slope * max(0, t - start) (continuous sample time). The start time is a "
      "breakpoint that solvers land on; the branch (before/after start) is a mode chosen at "
      "major steps and held inside solver steps.";
  t.reference = "Simulink Ramp";
  t.params = {{"slope", ParamKind::kScalar, "1", "rate of change, units of y per s"},
              {"start", ParamKind::kScalar, "0", "start time, s"},
              {"initial", ParamKind::kScalar, "0", "output before the start"}};
  t.outputs = {{"y", "the ramp, scalar"}};
  t.create = [](const Params& p) { return std::make_unique<Ramp>(p); };
  return t;
}

}  // namespace twinblocks::blocks
