#include "blocks/signal/clock.h"

#include <memory>

namespace twinblocks::blocks {

Clock::Clock(const Params& params) {
  DeclareOutput("t", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareTimeDependence();
}

void Clock::DoCalcOutputs(Context& c, int stage) const { out(c, 0)[0] = c.t; }

BlockType ClockType() {
  BlockType t;
  t.name = "Clock";
  t.category = "Sources";
  t.summary = "Outputs the simulation time.";
  t.doc = "t = the time being evaluated, s (continuous sample time: minor steps included).";
  t.reference = "Simulink Clock";
  t.outputs = {{"t", "simulation time, s, scalar"}};
  t.create = [](const Params& p) { return std::make_unique<Clock>(p); };
  return t;
}

}  // namespace twinblocks::blocks
