#include "sweep/run_random.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace twinblocks::sweep {

namespace {

constexpr std::uint64_t RotateLeft(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t SplitMix64(std::uint64_t* state) {
  std::uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

RunRandom::RunRandom(std::uint64_t seed, std::uint64_t run_index) {
  // The index is mixed before it meets the seed, so that nearby (seed, index) pairs, such as
  // (1, 0) and (0, 1), start far apart rather than one SplitMix step from each other.
  std::uint64_t index_state = run_index;
  std::uint64_t state = seed ^ SplitMix64(&index_state);
  for (std::uint64_t& word : s_) word = SplitMix64(&state);
  // xoshiro's one forbidden state is all zeros; SplitMix64 cannot give four zero words in a
  // row, but keep the guarantee explicit.
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
}

RunRandom RunRandom::FromState(const std::array<std::uint64_t, 4>& state) {
  RunRandom r;
  r.s_ = state;
  if ((state[0] | state[1] | state[2] | state[3]) == 0) {
    throw std::invalid_argument("RunRandom::FromState: the all-zero state never leaves zero");
  }
  return r;
}

std::uint64_t RunRandom::NextBits() {
  const std::uint64_t result = RotateLeft(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = RotateLeft(s_[3], 45);
  return result;
}

double RunRandom::Uniform01() { return static_cast<double>(NextBits() >> 11) * 0x1.0p-53; }

double RunRandom::StandardNormal() {
  const double u1 = 1.0 - Uniform01();  // (0, 1]
  const double u2 = Uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace twinblocks::sweep
