#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y[k] = u[k-n], with y = x0 for the first n samples. The last n inputs live in a ring
/// buffer in the discrete states (n x width, oldest at the head); the head index is in dwork.
class Delay final : public Block {
 public:
  /// @throws BlockError unless n >= 0, for a bad Ts/offset or an empty x0.
  explicit Delay(const Params& params);
  /// A delay of `n` samples whatever the parameters say (UnitDelay is Delay with n = 1).
  Delay(const Params& params, int n);

  int DefaultInputWidth() const override { return static_cast<int>(x0_param_.size()); }
  /// n = 1 of a scalar: the detector chain's delay, run from a table by the simulator.
  std::optional<UnitDelaySlots> unit_delay_slots() const override;

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  int n_;
  Eigen::VectorXd x0_param_;
  std::vector<double> x0_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of Delay.
BlockType DelayType();

}  // namespace twinblocks::blocks
