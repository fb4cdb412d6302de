#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/discrete/detail/integration_method.h"
#include "blocks/param.h"
#include "blocks/signal/detail/reset_trigger.h"

namespace twinblocks::blocks {

/// Discrete-time integrator (Simulink's Discrete-Time Integrator, integration mode): at each
/// hit, y[k] = clip(s[k] + now K T u[k]) and s[k+1] = clip(y[k] + (1 - now) K T u[k]), with
/// now = 0 (forward Euler), 1 (backward Euler) or 1/2 (trapezoidal); at the first hit and at a
/// reset, y[k] = clip(x0) instead. Optional limits with a saturation port, external reset and
/// external initial condition.
///
/// Storage: discrete states s (width); dwork: [started][previous reset value per reset
/// element]. The outputs only read them; Update commits the hit (so that outputs computed
/// twice at one hit agree).
class DiscreteIntegrator final : public Block {
 public:
  /// @throws BlockError when lower > upper, K is not finite, the parameters disagree in width,
  /// or for a bad Ts/offset.
  explicit DiscreteIntegrator(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(x0_param_.size()); }

 protected:
  /// @throws BlockError when x0, the limits, or the reset/x0 inputs do not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  double Clamp(double v, int i) const {
    return v > upper_[i] ? upper_[i] : (v < lower_[i] ? lower_[i] : v);
  }
  /// True when element i starts again at this hit: the first hit, or its reset fires.
  bool Restarts(const Context& c, int i) const;
  double InitialValue(const Context& c, int i) const {
    return in_x0_ >= 0 ? in(c, in_x0_)[i * x0_stride_] : x0_[i];
  }

  internal::IntegrationMethod method_;
  double k_;
  Eigen::VectorXd x0_param_, lower_param_, upper_param_;
  internal::ResetTrigger reset_;
  int in_reset_ = -1, in_x0_ = -1;  ///< input port indices, -1 when absent
  int out_sat_ = -1;                ///< output port index, -1 when absent
  // Fixed by DoConfigure.
  int width_ = 1;
  int u_stride_ = 1, reset_width_ = 0, reset_stride_ = 0, x0_stride_ = 0;
  std::vector<double> x0_, lower_, upper_;  ///< (width)
};

/// The registry entry of DiscreteIntegrator.
BlockType DiscreteIntegratorType();

}  // namespace twinblocks::blocks
