#pragma once

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/random_source.h"

namespace twinblocks::blocks {

/// Normally distributed random numbers, a new draw at each sample hit: y = mean + sqrt(variance)
/// n, n standard normal from the stream of `seed` (blocks/signal/detail/counter_random.h).
class RandomNumber final : public internal::RandomSource {
 public:
  /// @throws BlockError for a non-finite mean, a negative or non-finite variance, a seed that
  /// is not a whole number, lengths that disagree, or a bad sample time.
  explicit RandomNumber(const Params& params);
};

/// The registry entry of RandomNumber.
BlockType RandomNumberType();

}  // namespace twinblocks::blocks
