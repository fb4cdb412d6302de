#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

/// The random numbers of the noise sources (RandomNumber, UniformRandomNumber,
/// BandLimitedWhiteNoise, SignalGenerator's random wave), defined here bit for bit rather than
/// taken from <random>, whose distributions are implementation-defined. A stream is counter
/// based: draw n of a stream is a function of the stream's key and n alone (SplitMix64's n-th
/// output, Steele, Lea, Flood 2014), so a block keeps only the count of its draws (a discrete
/// state), and saving and restoring a run, or running it on another thread or MPI rank, gives
/// the same numbers.
namespace twinblocks::blocks::internal {

/// SplitMix64's output function: a bijective mix of 64 bits.
inline std::uint64_t Mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The golden-ratio increment of SplitMix64.
inline constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

/// The key of the stream of `seed` (a whole number, as the blocks' `seed` parameters are):
/// streams of different seeds start at unrelated points of SplitMix64's period.
inline std::uint64_t StreamKey(std::uint64_t seed) { return Mix64(seed ^ 0x6a09e667f3bcc909ULL); }

/// Draw n of the stream `key`: SplitMix64 seeded with `key`, its (n + 1)-th output.
inline std::uint64_t StreamBits(std::uint64_t key, std::uint64_t n) {
  return Mix64(key + (n + 1) * kGoldenGamma);
}

/// Uniform on [0, 1): the top 53 bits of draw n, times 2^-53.
inline double StreamUniform(std::uint64_t key, std::uint64_t n) {
  return static_cast<double>(StreamBits(key, n) >> 11) * 0x1.0p-53;
}

/// Standard normal sample n of the stream: Box-Muller on draws 2n and 2n + 1,
/// sqrt(-2 ln u1) cos(2 pi u2) with u1 in (0, 1] so that its log is finite. One sample per
/// pair (the sine half is not kept): sample n depends on n alone.
inline double StreamNormal(std::uint64_t key, std::uint64_t n) {
  const double u1 = 1.0 - StreamUniform(key, 2 * n);
  const double u2 = StreamUniform(key, 2 * n + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace twinblocks::blocks::internal
