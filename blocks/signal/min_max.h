#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/elementwise_block.h"

namespace twinblocks::blocks {

/// y = element-wise min or max over the inputs; a single input reduces over its elements.
/// Which candidate wins is a mode per output element, held inside solver steps.
class MinMax final : public internal::ElementwiseBlock {
 public:
  /// @throws BlockError unless inputs >= 1.
  explicit MinMax(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// Candidate j for output element i.
  double Candidate(const Context& c, int j, int i) const {
    return reduce_ ? in(c, 0)[j] : in(c, j)[i * strides_[j]];
  }

  bool max_ = false;
  bool reduce_ = false;  ///< one input: candidates are its elements
  int num_candidates_ = 1;
};

/// The registry entry of MinMax.
BlockType MinMaxType();

}  // namespace twinblocks::blocks
