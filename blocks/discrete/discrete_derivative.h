#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y[k] = K (u[k] - u[k-1]) / Ts, element-wise (Simulink's Discrete Derivative). The state is
/// the previous weighted input K u[k-1] / Ts, x0 at the start.
///
/// Storage: discrete states (width).
class DiscreteDerivative final : public Block {
 public:
  /// @throws BlockError when K is not finite, x0 is empty, or for a bad Ts/offset.
  explicit DiscreteDerivative(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(x0_param_.size()); }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  double k_;
  Eigen::VectorXd x0_param_;
  std::vector<double> x0_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of DiscreteDerivative.
BlockType DiscreteDerivativeType();

}  // namespace twinblocks::blocks
