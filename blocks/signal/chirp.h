#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A sine whose frequency rises linearly with time: f(t) = f0 + (f1 - f0) t / T (Hz), and
/// y = sin(2 pi (f0 t + (f1 - f0) t^2 / (2 T))), the phase being the integral of 2 pi f.
class Chirp final : public Block {
 public:
  /// @throws BlockError unless the frequencies are finite and the target time positive and
  /// finite, with lengths that agree (scalars expand).
  explicit Chirp(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<double> f0_;     ///< Hz, the frequency at t = 0 (width)
  std::vector<double> sweep_;  ///< Hz/s, (f1 - f0) / T (width)
};

/// The registry entry of Chirp.
BlockType ChirpType();

}  // namespace twinblocks::blocks
