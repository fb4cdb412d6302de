#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

/// y = (u op value) ? 1 : 0 element-wise. The result is a mode per element, held inside
/// solver steps; zero-crossing function u - value.
class CompareToConstant final : public Block {
 public:
  explicit CompareToConstant(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  internal::CompareOp op_;
  Eigen::VectorXd value_param_;
  std::vector<double> value_;  ///< (width)
  int u_stride_ = 1;
};

/// The registry entry of CompareToConstant.
BlockType CompareToConstantType();

}  // namespace twinblocks::blocks
