#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/delay/detail/delay_history.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y(t) = u(t - d(t)) with d clipped to [0, max_delay] (Simulink's Variable Time Delay),
/// element-wise, and initial_output until t - d(t) reaches t0. The history of u is
/// TransportDelay's (DelayHistory). u is not direct feedthrough, d is.
///
/// Modes (width): 1 once t - d >= t0 for the element, chosen at major steps; zero crossings
/// (width): t - d - t0, where the output jumps from initial_output to u(t0).
class VariableTransportDelay final : public Block {
 public:
  /// @throws BlockError for a max_delay that is not positive and finite, a bad buffer_size,
  ///   an empty or non-finite initial_output.
  explicit VariableTransportDelay(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(initial_output_param_.size()); }

 protected:
  /// @throws BlockError when d is neither scalar nor as wide as u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  /// Records (t, u); @throws std::runtime_error when the history is full of samples that a
  ///   delay up to max_delay may still need.
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// t - d for element i, d clipped to [0, max_delay].
  double ReadTime(const Context& c, int i) const;

  double max_delay_;  ///< s
  Eigen::VectorXd initial_output_param_;
  int buffer_size_;
  std::vector<double> initial_output_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
  int d_stride_ = 1;
  internal::DelayHistory history_{4, 1};
};

/// The registry entry of VariableTransportDelay.
BlockType VariableTransportDelayType();

}  // namespace twinblocks::blocks
