#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "blocks/block.h"
#include "blocks/param.h"

namespace twinblocks::blocks::internal {

/// The common part of the noise sources (RandomNumber, UniformRandomNumber,
/// BandLimitedWhiteNoise): a discrete block whose output element i at its k-th sample hit is
/// y_i = offset_i + scale_i r_i(k), r_i(k) draw k of the counter-based stream of seed_i
/// (counter_random.h): standard normal, or uniform on [0, 1). Its one discrete state is k, the
/// number of samples drawn, so that a saved and restored run draws the same numbers again.
class RandomSource : public Block {
 public:
  enum class Law { kNormal, kUniform };
  /// What a noise source draws: `offset`, `scale` per element (the width of the output);
  /// `seeds` the `seed` parameter's values, one per element or one for all (element i then
  /// takes seed + i).
  struct Spec {
    Law law = Law::kNormal;
    std::vector<double> offset;
    std::vector<double> scale;
    Eigen::VectorXd seeds;
  };

 protected:
  /// Reads the sample time from the `Ts` and `offset` parameters of `params`.
  /// @throws BlockError for a seed that is not a whole number in [0, 2^53], or a sample time
  /// that is not positive and finite.
  RandomSource(const Params& params, Spec spec);

  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  Law law_;
  std::vector<double> offset_;       ///< (width)
  std::vector<double> scale_;        ///< (width)
  std::vector<std::uint64_t> keys_;  ///< (width) stream keys
};

/// The stream keys of `width` elements from a `seed` parameter's values: one per element, or
/// one for all (element i then takes seed + i).
/// @throws BlockError for a seed that is not a whole number in [0, 2^53], or a count of
/// seeds that is neither 1 nor `width`.
std::vector<std::uint64_t> SeedKeys(const Eigen::VectorXd& seeds, int width);

/// The `Ts` and `offset` parameters of a noise source.
inline constexpr const char* kNoiseTsDoc = "sample time, s (> 0): a new value at each hit";
inline constexpr const char* kNoiseOffsetDoc = "sample time offset, s, 0 <= offset < Ts";

}  // namespace twinblocks::blocks::internal
