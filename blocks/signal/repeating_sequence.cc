#include "blocks/signal/repeating_sequence.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/signal/detail/param_checks.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

RepeatingSequence::RepeatingSequence(const Params& params) {
  const Eigen::VectorXd time = params.Vector("time");
  const Eigen::VectorXd values = params.Vector("values");
  internal::CheckParamValues("time", time, internal::ValueRange::kFinite, "s");
  internal::CheckParamValues("values", values, internal::ValueRange::kFinite);
  if (time.size() < 2) {
    throw BlockError(
        "parameter 'time' must hold at least two times (the period is the last "
        "minus the first)",
        "time");
  }
  if (values.size() != time.size()) {
    throw BlockError("parameter 'values' has " + std::to_string(values.size()) +
                         " elements, but 'time' has " + std::to_string(time.size()) +
                         " (one value per time)",
                     "values");
  }
  for (Eigen::Index j = 1; j < time.size(); ++j) {
    if (!(time(j) > time(j - 1))) {
      throw BlockError("parameter 'time' must increase strictly: element " + std::to_string(j) +
                           " (" + FormatValue(time(j)) + ") follows " + FormatValue(time(j - 1)),
                       "time");
    }
  }
  t0_ = time(0);
  period_ = time(time.size() - 1) - t0_;
  for (Eigen::Index j = 0; j < time.size(); ++j) {
    offsets_.push_back(time(j) - t0_);
    values_.push_back(values(j));
    if (j > 0) slopes_.push_back((values(j) - values(j - 1)) / (time(j) - time(j - 1)));
  }
  DeclareOutput("y", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareTimeDependence();
  DeclareBreakpoints();
  DeclareDWork(2);  // the period k and segment j held since the last major step
}

double RepeatingSequence::PeriodIndex(double t) const {
  double k = std::floor((t - t0_) / period_);
  // The quotient may round across a period's start; settle it against the expression itself
  // (a few ulps at most: bounded, since past 2^53 periods k + 1 is k).
  for (int i = 0; i < 4 && PeriodStart(k + 1.0) <= t; ++i) k += 1.0;
  for (int i = 0; i < 4 && PeriodStart(k) > t; ++i) k -= 1.0;
  return k;
}

int RepeatingSequence::SegmentIndex(double k, double t) const {
  // Binary search on the edges as Edge computes them: no allocation, O(log n).
  int lo = 0;
  int hi = num_points() - 2;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (Edge(k, mid) <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

void RepeatingSequence::TakeSegment(Context& c) const {
  double* held = dwork(c);
  held[0] = PeriodIndex(c.t);
  held[1] = SegmentIndex(held[0], c.t);
}

void RepeatingSequence::DoInitialize(Context& c) const { TakeSegment(c); }

void RepeatingSequence::DoCalcOutputs(Context& c, int stage) const {
  // Inside a solver step the segment chosen at the major step holds: a stage past its end
  // extends it linearly, and the end of the period does not jump until the major step there.
  if (c.major) TakeSegment(c);
  const double* held = dwork(c);
  const int j = static_cast<int>(held[1]);
  out(c, 0)[0] = values_[j] + slopes_[j] * (c.t - Edge(held[0], j));
}

double RepeatingSequence::DoNextBreakpoint(const Context& c, double t) const {
  const double k = PeriodIndex(t);
  return Edge(k, SegmentIndex(k, t) + 1);
}

BlockType RepeatingSequenceType() {
  BlockType t;
  t.name = "RepeatingSequence";
  t.category = "Sources";
  t.summary = "A periodic signal interpolated linearly through given points.";
  t.doc =
      "y(t) = the linear interpolation of (time_j, values_j) at time_first + ((t - time_first) "
      "mod P), P = time_last - time_first: the points describe one period, which repeats before "
      "and after it (with time_first = 0, y(t) = y(t - n P) as in Simulink). At the end of each "
      "period y jumps from values_last back to values_first (the defaults make a sawtooth of "
      "period 2 s and peak 2). Every point is a breakpoint that solvers land on, so that no step "
      "straddles a kink or the jump; the output at a major step on a jump has the new value.";
  t.reference = "Simulink Repeating Sequence (time values, output values; its defaults)";
  t.params = {{"time", ParamKind::kVector, "[0, 2]", "times of one period, s, strictly increasing"},
              {"values", ParamKind::kVector, "[0, 2]", "the output at each time"}};
  t.outputs = {{"y", "the sequence, scalar"}};
  t.create = [](const Params& p) { return std::make_unique<RepeatingSequence>(p); };
  return t;
}

}  // namespace twinblocks::blocks
