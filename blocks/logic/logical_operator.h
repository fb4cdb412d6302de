#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = op(u1, ..., un) ? 1 : 0 element-wise, inputs true when non-zero; a single input of
/// several elements reduces over them (except NOT, which negates each element).
class LogicalOperator final : public Block {
 public:
  /// @throws BlockError unless inputs >= 1.
  explicit LogicalOperator(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  enum class Op { kAnd, kOr, kNand, kNor, kXor, kNot };
  /// The operator applied to `count` true inputs out of `total`.
  bool Apply(int count, int total) const;

  Op op_ = Op::kAnd;
  bool reduce_ = false;       ///< one input: combine its elements
  std::vector<int> strides_;  ///< per input, 0 for an expanded scalar
};

/// The registry entry of LogicalOperator.
BlockType LogicalOperatorType();

}  // namespace twinblocks::blocks
