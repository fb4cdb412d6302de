#pragma once

#include <cstdint>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// One of four periodic waveforms of amplitude A and angular frequency w (phase c = w t / 2 pi
/// cycles): sine A sin(w t); square A for frac(c) < 1/2 and -A after; sawtooth
/// A (2 frac(c) - 1); random, a uniform value on [-A, A) drawn anew each period. The jumps of
/// the last three are breakpoints, at t = k L with L the half period (square) or the period;
/// the index k of the interval is held in the block's work memory between major steps, so that
/// solver stages inside a step keep the interval it started in.
class SignalGenerator final : public Block {
 public:
  enum class Waveform { kSine, kSquare, kSawtooth, kRandom };

  /// @throws BlockError unless the amplitudes are finite and the frequencies positive and
  /// finite, with lengths that agree, and the seeds whole numbers.
  explicit SignalGenerator(const Params& params);

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  /// The start of interval k of element i: k L_i, from this one expression only, so that the
  /// time a solver lands on and the interval found there agree to the last bit.
  double Edge(int i, double k) const { return k * interval_[i]; }
  /// The k (a whole number) with Edge(i, k) <= t < Edge(i, k + 1).
  double IntervalIndex(int i, double t) const;
  void TakeIntervals(Context& c) const;

  Waveform waveform_;
  std::vector<double> amplitude_;    ///< (width)
  std::vector<double> omega_;        ///< rad/s (width)
  std::vector<double> interval_;     ///< s, L: half period (square) or period (width)
  std::vector<std::uint64_t> keys_;  ///< random: stream keys (width)
};

/// The registry entry of SignalGenerator.
BlockType SignalGeneratorType();

}  // namespace twinblocks::blocks
