#pragma once

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A time-based pulse train: y = amplitude on [start + k period, start + (k + duty) period),
/// 0 elsewhere (and before start). Every edge is a breakpoint; the edge times are computed
/// from the integer period index k by one expression, so the time the solver lands on and
/// the output test agree to the last bit.
class Pulse final : public Block {
 public:
  /// @throws BlockError unless period > 0 and 0 <= duty <= 1.
  explicit Pulse(const Params& params);

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  double Rise(long long k) const { return start_ + static_cast<double>(k) * period_; }
  double Fall(long long k) const { return start_ + (static_cast<double>(k) + duty_) * period_; }
  /// The k with Rise(k) <= t < Rise(k + 1); -1 before start.
  long long PeriodIndex(double t) const;
  bool High(long long k, double t) const { return k >= 0 && duty_ > 0.0 && t < Fall(k); }

  double amplitude_;
  double period_;  ///< s
  double duty_;    ///< fraction of the period that is high, 0..1
  double start_;   ///< s, the first rising edge
};

/// The registry entry of Pulse.
BlockType PulseType();

}  // namespace twinblocks::blocks
