#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u1 where u2 meets the criteria (u2 >= threshold, u2 > threshold or u2 != 0), else
/// u3, element-wise. The choice is a mode per element, held inside solver steps;
/// zero-crossing function u2 - threshold (u2 for `!=0`).
class Switch final : public Block {
 public:
  explicit Switch(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  enum class Criteria { kGreaterEqual, kGreater, kNonZero };
  bool Passes(double u2) const {
    switch (criteria_) {
      case Criteria::kGreaterEqual:
        return u2 >= threshold_;
      case Criteria::kGreater:
        return u2 > threshold_;
      case Criteria::kNonZero:
        return u2 != 0.0;
    }
    return false;
  }

  double threshold_;
  Criteria criteria_ = Criteria::kGreaterEqual;
  int s1_ = 1, s2_ = 1, s3_ = 1;  ///< strides of u1, u2, u3
};

/// The registry entry of Switch.
BlockType SwitchType();

}  // namespace twinblocks::blocks
