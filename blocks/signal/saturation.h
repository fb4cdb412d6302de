#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = min(max(u, lower), upper) element-wise. The region (below, inside, above) is a mode
/// per element, chosen at major steps and held inside solver steps; zero-crossing functions
/// u - upper and u - lower.
class Saturation final : public Block {
 public:
  /// @throws BlockError when lower > upper or the limits disagree in width.
  explicit Saturation(const Params& params);

 protected:
  /// @throws BlockError when a vector limit does not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd lower_param_, upper_param_;
  std::vector<double> lower_, upper_;  ///< (width)
  int u_stride_ = 1;
};

/// The registry entry of Saturation.
BlockType SaturationType();

}  // namespace twinblocks::blocks
