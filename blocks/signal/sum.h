#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/elementwise_block.h"

namespace twinblocks::blocks {

/// y = sum of +-u_j, element-wise with scalar expansion; a single input sums its elements.
class Sum final : public internal::ElementwiseBlock {
 public:
  /// @throws BlockError when `signs` holds anything but '+', '-', '|' or no sign.
  explicit Sum(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<double> signs_;   ///< +1 or -1 per input
  bool scalar_pair_ = false;    ///< two scalar inputs: the hot case, without loops
  double s0_ = 1.0, s1_ = 1.0;  ///< their signs, kept next to the flag
};

/// The registry entry of Sum.
BlockType SumType();

}  // namespace twinblocks::blocks
