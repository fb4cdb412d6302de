#pragma once

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/random_source.h"

namespace twinblocks::blocks {

/// White noise of power spectral density `power` for a continuous system: normal samples of
/// variance power / Ts held over each sample period Ts, so that their integral over a period
/// has the variance power Ts of integrated white noise.
class BandLimitedWhiteNoise final : public internal::RandomSource {
 public:
  /// @throws BlockError for a negative or non-finite power, a seed that is not a whole number,
  /// lengths that disagree, or a bad sample time.
  explicit BandLimitedWhiteNoise(const Params& params);
};

/// The registry entry of BandLimitedWhiteNoise.
BlockType BandLimitedWhiteNoiseType();

}  // namespace twinblocks::blocks
