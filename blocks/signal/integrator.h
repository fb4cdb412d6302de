#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/reset_trigger.h"

namespace twinblocks::blocks {

/// x' = u, y = x, with optional limits or a wrapped state, reset input, external initial
/// condition and state port (Simulink's Integrator). Modes and zero crossings make limits,
/// wraps and resets exact under variable-step solvers.
///
/// Storage: x (width); modes: [limit mode per element (-1 at lower, 0 free, +1 at upper) if
/// limited][level reset active per reset element if reset=level]; dwork: [started][previous
/// reset value per reset element]; zero crossings: [x - lower, x - upper, u (when held) per
/// element, if limited][reset per reset element][wrap_upper - x, x - wrap_lower per element,
/// if wrapped].
class Integrator final : public Block {
 public:
  /// @throws BlockError when lower > upper or the parameters disagree in width.
  explicit Integrator(const Params& params);

  int DefaultInputWidth() const override { return static_cast<int>(x0_param_.size()); }

 protected:
  /// @throws BlockError when x0, the limits, or the reset/x0 inputs do not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  double InitialValue(const Context& c, int i) const {
    return in_x0_ >= 0 ? in(c, in_x0_)[i * x0_stride_] : x0_[i];
  }
  double Clamp(double v, int i) const {
    return v > upper_[i] ? upper_[i] : (v < lower_[i] ? lower_[i] : v);
  }
  /// v in [wrap_lower, wrap_upper) (the state as it enters, when not wrapped).
  double Wrap(double v, int i) const;
  /// Where the state starts or restarts: x0 clamped or wrapped.
  double Admissible(double v, int i) const { return wrapped_ ? Wrap(v, i) : Clamp(v, i); }

  Eigen::VectorXd x0_param_, lower_param_, upper_param_;
  Eigen::VectorXd abs_tol_param_;  ///< empty: auto
  Eigen::VectorXd wrap_lower_param_, wrap_upper_param_;
  bool wrapped_ = false;
  internal::ResetTrigger reset_;
  bool limited_ = false;
  int in_reset_ = -1, in_x0_ = -1;  ///< input port indices, -1 when absent
  int out_y_ = 0, out_state_ = -1;  ///< output port indices
  // Fixed by DoConfigure.
  int width_ = 1;
  int u_stride_ = 1, reset_width_ = 0, reset_stride_ = 0, x0_stride_ = 0;
  std::vector<double> x0_, lower_, upper_;       ///< (width)
  std::vector<double> wrap_lower_, wrap_upper_;  ///< (width) when wrapped
};

/// The registry entry of Integrator.
BlockType IntegratorType();

}  // namespace twinblocks::blocks
