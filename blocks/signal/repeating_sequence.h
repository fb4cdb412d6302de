#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A periodic, piecewise-linear signal through the points (time_j, values_j), repeated with
/// the period P = time_last - time_first. Every point is a breakpoint (a kink, or the jump
/// from values_last back to values_first at the end of each period); the period k and segment
/// j in force are held in the block's work memory between major steps.
class RepeatingSequence final : public Block {
 public:
  /// @throws BlockError unless time and values have the same length >= 2, the times are
  /// finite and strictly increasing and the values finite.
  explicit RepeatingSequence(const Params& params);

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  int num_points() const { return static_cast<int>(values_.size()); }
  /// s, the start of period k: t0 + k P.
  double PeriodStart(double k) const { return t0_ + k * period_; }
  /// s, the time of point j of period k (j = n - 1 is the start of period k + 1): the one
  /// expression both the breakpoints and the segment search use, so that they agree bitwise.
  double Edge(double k, int j) const {
    return j == num_points() - 1 ? PeriodStart(k + 1.0) : PeriodStart(k) + offsets_[j];
  }
  /// The k (a whole number) with PeriodStart(k) <= t < PeriodStart(k + 1).
  double PeriodIndex(double t) const;
  /// The segment j in [0, n - 2] with Edge(k, j) <= t < Edge(k, j + 1).
  int SegmentIndex(double k, double t) const;
  void TakeSegment(Context& c) const;

  double t0_ = 0.0;              ///< s, the first time value
  double period_ = 0.0;          ///< s
  std::vector<double> offsets_;  ///< s, time_j - time_first (n)
  std::vector<double> values_;   ///< (n)
  std::vector<double> slopes_;   ///< 1/s, of segment j (n - 1)
};

/// The registry entry of RepeatingSequence.
BlockType RepeatingSequenceType();

}  // namespace twinblocks::blocks
