#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Simulink's Rate Limiter: y = y_prev + clamp(u - y_prev, falling dt, rising dt), with
/// y_prev and dt from the last major step (continuous rate) or the last hit (discrete rate,
/// dt = Ts), element-wise. dwork: [started, t_prev, y_prev (width)].
class RateLimiter final : public Block {
 public:
  /// @throws BlockError unless rising >= 0 >= falling, for a non-finite initial_condition,
  ///   parameters of disagreeing widths or a bad Ts.
  explicit RateLimiter(const Params& params);

  int DefaultInputWidth() const override {
    return static_cast<int>(initial_condition_param_.size());
  }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  Eigen::VectorXd rising_param_, falling_param_, initial_condition_param_;
  std::vector<double> rising_, falling_, initial_condition_;  ///< (width) each
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of RateLimiter.
BlockType RateLimiterType();

}  // namespace twinblocks::blocks
