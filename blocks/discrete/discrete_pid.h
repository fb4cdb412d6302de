#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Discrete parallel PID, forward-Euler integral, backward-difference derivative:
///   u[k] = Kp e[k] + I[k] + Kd (e[k] - e[k-1]) / Ts,  I[k+1] = I[k] + Ki Ts e[k],
/// with I[0] = 0, e[-1] = 0. Discrete states: [I (width), e[k-1] (width)].
class DiscretePid final : public Block {
 public:
  /// @throws BlockError for a bad Ts/offset.
  explicit DiscretePid(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  double kp_, ki_, kd_;
  int width_ = 1;
};

/// The registry entry of DiscretePID.
BlockType DiscretePidType();

}  // namespace twinblocks::blocks
