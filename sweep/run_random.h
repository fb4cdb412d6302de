#pragma once

// The random numbers of one run of a Monte Carlo sweep. Every draw is defined here, bit for
// bit, rather than taken from <random>: the std:: distributions are implementation-defined,
// so the same seed would give other parameter values (and other results) with another
// standard library. The generator of run i is seeded from (seed, i) only, so a run draws the
// same values whichever thread or MPI rank runs it, and in whatever order the runs execute.

#include <array>
#include <cstdint>

namespace twinblocks::sweep {

/// One step of SplitMix64 (Steele, Lea, Flood 2014): advances `state` by the golden-ratio
/// increment and returns its 64-bit mix. Used to spread (seed, run index) over the state of
/// RunRandom.
std::uint64_t SplitMix64(std::uint64_t* state);

/// xoshiro256** (Blackman, Vigna 2018) seeded from a sweep's seed and a run's index, with the
/// transforms to the distributions a sweep offers.
class RunRandom {
 public:
  /// The generator of run `run_index` of a sweep seeded with `seed`.
  RunRandom(std::uint64_t seed, std::uint64_t run_index);

  /// A generator in the given state (not all zero): to check the generator against the
  /// published outputs of the reference implementation.
  static RunRandom FromState(const std::array<std::uint64_t, 4>& state);

  /// The next 64 random bits.
  std::uint64_t NextBits();

  /// Uniform on [0, 1): the top 53 bits of a draw, times 2^-53 (every double of the form
  /// k 2^-53, equally likely).
  double Uniform01();

  /// Standard normal: Box-Muller on two uniform draws (u1 in (0, 1], so its log is finite),
  /// sqrt(-2 ln u1) cos(2 pi u2). Each call takes two draws; the sine half is not kept, so a
  /// draw never depends on an earlier call's leftover.
  double StandardNormal();

 private:
  RunRandom() = default;
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace twinblocks::sweep
