#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

/// y = (u1 op u2) ? 1 : 0 element-wise. The result is a mode per element, chosen at major
/// steps and held inside solver steps; zero-crossing function u1 - u2.
class RelationalOperator final : public Block {
 public:
  explicit RelationalOperator(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  internal::CompareOp op_;
  int stride1_ = 1, stride2_ = 1;
};

/// The registry entry of RelationalOperator.
BlockType RelationalOperatorType();

}  // namespace twinblocks::blocks
