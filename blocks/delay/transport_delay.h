#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/delay/detail/delay_history.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y(t) = u(t - delay), and initial_output until t0 + delay. The input is sampled at every
/// major step into a ring buffer of buffer_size samples in the work memory (DelayHistory),
/// read between samples by an ENO quintic. u is not direct feedthrough (the block can close a
/// feedback loop) unless the delay is 0, where y = u.
///
/// Mode (1): 1 once t >= t0 + delay (a breakpoint, so the solver lands on the output's jump
/// there), chosen at major steps.
class TransportDelay final : public Block {
 public:
  /// @throws BlockError for a negative or non-finite delay, a bad buffer_size, an empty or
  ///   non-finite initial_output.
  explicit TransportDelay(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(initial_output_param_.size()); }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  /// Records (t, u); @throws std::runtime_error when the history is full of samples the delay
  /// still needs.
  void DoUpdate(Context& c) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  double delay_;  ///< s
  Eigen::VectorXd initial_output_param_;
  int buffer_size_;
  std::vector<double> initial_output_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
  internal::DelayHistory history_{4, 1};
};

/// The registry entry of TransportDelay.
BlockType TransportDelayType();

}  // namespace twinblocks::blocks
