#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/elementwise_block.h"

namespace twinblocks::blocks {

/// y = u1 (*|/) u2 (*|/) ..., element-wise with scalar expansion; a single input multiplies
/// its elements.
class Product final : public internal::ElementwiseBlock {
 public:
  /// @throws BlockError when `ops` holds anything but '*' and '/' or nothing.
  explicit Product(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<char> divide_;     ///< per input: 1 to divide by it, 0 to multiply
  bool multiplies_only_ = true;  ///< no input divides (a detector's product of its samples)
};

/// The registry entry of Product.
BlockType ProductType();

}  // namespace twinblocks::blocks
