#pragma once

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/random_source.h"

namespace twinblocks::blocks {

/// Uniformly distributed random numbers on [minimum, maximum), a new draw at each sample hit,
/// from the stream of `seed` (blocks/signal/detail/counter_random.h).
class UniformRandomNumber final : public internal::RandomSource {
 public:
  /// @throws BlockError for bounds that are not finite or with minimum > maximum, a seed that
  /// is not a whole number, lengths that disagree, or a bad sample time.
  explicit UniformRandomNumber(const Params& params);
};

/// The registry entry of UniformRandomNumber.
BlockType UniformRandomNumberType();

}  // namespace twinblocks::blocks
