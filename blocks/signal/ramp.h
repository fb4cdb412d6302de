#pragma once

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = initial + slope * max(0, t - start). The kink at `start` is a breakpoint; minor steps
/// keep the branch chosen at the last major step.
class Ramp final : public Block {
 public:
  explicit Ramp(const Params& params);

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  double slope_;    ///< per s
  double start_;    ///< s
  double initial_;  ///< output before start
};

/// The registry entry of Ramp.
BlockType RampType();

}  // namespace twinblocks::blocks
