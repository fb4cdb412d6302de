#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = (u - u_prev) / (t - t_prev), with u_prev, t_prev from the last major step; 0 at the
/// start. dwork: [started, t_prev, u_prev (width), y_prev (width)].
class Derivative final : public Block {
 public:
  explicit Derivative(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;
};

/// The registry entry of Derivative.
BlockType DerivativeType();

}  // namespace twinblocks::blocks
