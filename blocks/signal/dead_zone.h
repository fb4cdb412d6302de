#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = 0 inside [start, end], u - end above, u - start below, element-wise. The region is a
/// mode per element, held inside solver steps; zero-crossing functions u - start, u - end.
class DeadZone final : public Block {
 public:
  /// @throws BlockError when start > end or the limits disagree in width.
  explicit DeadZone(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd start_param_, end_param_;
  std::vector<double> start_, end_;  ///< (width)
  int u_stride_ = 1;
};

/// The registry entry of DeadZone.
BlockType DeadZoneType();

}  // namespace twinblocks::blocks
