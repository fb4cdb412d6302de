#include "blocks/signal/pulse.h"

#include <cmath>
#include <limits>
#include <memory>

namespace twinblocks::blocks {

Pulse::Pulse(const Params& params)
    : amplitude_(params.Scalar("amplitude")),
      period_(params.Scalar("period")),
      duty_(params.Scalar("duty")),
      start_(params.Scalar("start")) {
  if (!(period_ > 0.0) || !std::isfinite(period_)) {
    throw BlockError("parameter 'period' must be positive and finite", "period");
  }
  if (!(duty_ >= 0.0 && duty_ <= 1.0)) {
    throw BlockError("parameter 'duty' must be a fraction of the period in [0, 1]", "duty");
  }
  if (!std::isfinite(start_)) throw BlockError("parameter 'start' must be finite", "start");
  DeclareOutput("y", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareBreakpoints();
  DeclareModes(2);  // [period index k, high]
}

long long Pulse::PeriodIndex(double t) const {
  if (t < start_) return -1;
  auto k = static_cast<long long>(std::floor((t - start_) / period_));
  // The quotient may round across an edge; settle it against the edge expression itself.
  while (Rise(k + 1) <= t) ++k;
  while (k > 0 && Rise(k) > t) --k;
  return k;
}

void Pulse::DoInitialize(Context& c) const {
  const long long k = PeriodIndex(c.t);
  int* mode = modes(c);
  mode[0] = static_cast<int>(k);
  mode[1] = High(k, c.t) ? 1 : 0;
}

void Pulse::DoCalcOutputs(Context& c, int stage) const {
  int* mode = modes(c);
  if (c.major) {
    const long long k = PeriodIndex(c.t);
    mode[0] = static_cast<int>(k);
    mode[1] = High(k, c.t) ? 1 : 0;
  }
  out(c, 0)[0] = mode[1] != 0 ? amplitude_ : 0.0;
}

double Pulse::DoNextBreakpoint(const Context& c, double t) const {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  if (duty_ == 0.0) return kNever;
  if (t < start_) return start_;
  if (duty_ == 1.0) return kNever;  // high from start on: no more edges
  const long long k = PeriodIndex(t);
  const double fall = Fall(k);
  return t < fall ? fall : Rise(k + 1);
}

BlockType PulseType() {
  BlockType t;
  t.name = "Pulse";
  t.category = "Sources";
  t.summary = "A rectangular pulse train.";
  t.doc =
      "y = amplitude for start + k*period <= t < start + (k + duty)*period (k = 0, 1, ...), "
      "y = 0 otherwise and before `start` (continuous, time based). Every rising and falling "
      "edge is a breakpoint that solvers land on exactly; the edges are computed from the "
      "integer period index k, held as a mode, so the output at a major step on an edge "
      "already has the new level, while solver stages inside a step keep the old one.";
  t.reference = "Simulink Pulse Generator (time based; `start` is its phase delay)";
  t.params = {{"amplitude", ParamKind::kScalar, "1", "level while high"},
              {"period", ParamKind::kScalar, "1", "period, s"},
              {"duty", ParamKind::kScalar, "0.5", "fraction of the period that is high, 0..1"},
              {"start", ParamKind::kScalar, "0", "time of the first rising edge, s"}};
  t.outputs = {{"y", "the pulse train, scalar"}};
  t.create = [](const Params& p) { return std::make_unique<Pulse>(p); };
  return t;
}

}  // namespace twinblocks::blocks
