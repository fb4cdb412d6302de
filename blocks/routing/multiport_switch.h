#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = the data input the control input selects (its value truncated toward zero), counted
/// from 1 or from 0. A control that selects no data input stops the run or selects the last
/// (or an extra `default`) input.
class MultiportSwitch final : public Block {
 public:
  /// @throws BlockError for fewer than one data input.
  explicit MultiportSwitch(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  /// @throws std::runtime_error at a major step where the control selects no data input and
  /// diagnostic is `error`.
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// The data input (0-based among them) for `control`, or -1 when it selects none.
  int Select(double control) const;

  int num_data_ = 2;  ///< u1..un, not counting `default`
  bool zero_based_ = false;
  bool additional_default_ = false;  ///< an input `default` for the out-of-range case
  bool error_out_of_range_ = true;
  std::vector<int> strides_;  ///< per data input (and `default`): 0 for an expanded scalar
};

/// The registry entry of MultiportSwitch.
BlockType MultiportSwitchType();

}  // namespace twinblocks::blocks
