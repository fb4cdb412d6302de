#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = amplitude sin(frequency t + phase) + bias, time based and continuous.
class Sine final : public Block {
 public:
  /// @throws BlockError when the vector parameters disagree in width.
  explicit Sine(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<double> amplitude_, frequency_, phase_, bias_;  ///< (width); rad/s, rad
};

/// The registry entry of Sine.
BlockType SineType();

}  // namespace twinblocks::blocks
