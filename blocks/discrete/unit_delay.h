#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y[k] = u[k-1], y[0] = x0: one sample of delay at the block's discrete rate. u is not
/// direct feedthrough, so a UnitDelay breaks algebraic loops.
class UnitDelay final : public Block {
 public:
  /// @throws BlockError for a bad Ts/offset or an empty x0.
  explicit UnitDelay(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(x0_param_.size()); }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  Eigen::VectorXd x0_param_;
  std::vector<double> x0_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of UnitDelay.
BlockType UnitDelayType();

}  // namespace twinblocks::blocks
