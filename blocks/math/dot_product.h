#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = sum_i u1_i u2_i, a scalar; a scalar input expands.
class DotProduct final : public Block {
 public:
  explicit DotProduct(const Params& params);

 protected:
  /// @throws BlockError for inputs of different widths, or a matrix with more than one row
  /// and column.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  int n_ = 1;
  int s1_ = 1, s2_ = 1;  ///< strides: 0 for an expanded scalar
};

/// The registry entry of DotProduct.
BlockType DotProductType();

}  // namespace twinblocks::blocks
