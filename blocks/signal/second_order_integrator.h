#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/reset_trigger.h"

namespace twinblocks::blocks {

/// x'' = u as two continuous states, x and dx = x' (Simulink's Second-Order Integrator), with
/// optional limits on x and on dx. What one block adds over two Integrators is that the
/// states know of each other: when x reaches a limit, dx is stopped there (or reinitialized,
/// a bounce), and the pair can come to rest on the limit, which two Integrators cannot: past a
/// bouncing ball's Zeno time they lose it through the floor.
///
/// Storage: continuous states [x (width), dx (width)]; modes: [x limit mode per element (-1
/// held at lower, 0 free, +1 held at upper), if x is limited][dx limit mode per element,
/// likewise][level reset active per reset element, if reset = level]; zero crossings:
/// [x - lower, x - upper, u (while held) per element, if x is limited][the same for dx, if dx
/// is limited][reset per reset element]; dwork: [per element, if x is limited, the side of
/// the limit x bounced off at the last major step (0: none)][started][previous reset value
/// per reset element].
class SecondOrderIntegrator final : public Block {
 public:
  /// @throws BlockError when a lower limit is above its upper one, x is limited but the dx
  /// limits exclude 0 (x could not stop at its limit), min_flight < 0, or widths disagree.
  explicit SecondOrderIntegrator(const Params& params);

  int DefaultInputWidth() const override { return width_param_; }

 protected:
  /// @throws BlockError when a vector parameter or an input (dx_reinit, reset, x0, dx0) does
  /// not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// At a major step: external initial conditions at the first, the reset where it fires.
  void ApplyInitialConditionsAndReset(Context& c) const;
  /// x[i] and dx[i] from their initial conditions (parameters or inputs), within the limits.
  void SetInitialConditions(const Context& c, int i, double* x, double* dx) const;
  /// At a major step with x on a limit (`side` -1 lower, +1 upper): stops or bounces dx and
  /// says whether x stays held there. `reinit` is dx_reinit's value, `u` the input.
  bool SettleOnLimit(double t, int side, double u, double reinit, double* dx) const;

  Eigen::VectorXd x0_param_, dx0_param_, lower_param_, upper_param_, lower_dx_param_,
      upper_dx_param_;
  Eigen::VectorXd abs_tol_x_param_, abs_tol_dx_param_;  ///< empty: auto
  int width_param_ = 1;
  bool limited_x_ = false, limited_dx_ = false, reinit_ = false;
  double min_flight_ = 0.0;
  internal::ResetTrigger reset_;
  int in_reinit_ = -1, in_reset_ = -1, in_x0_ = -1, in_dx0_ = -1;  ///< input ports, -1: absent
  int out_x_ = 0, out_dx_ = 1;
  // Fixed by DoConfigure.
  int width_ = 1;
  int u_stride_ = 1, reinit_stride_ = 0, reset_width_ = 0, reset_stride_ = 0, x0_stride_ = 0,
      dx0_stride_ = 0;
  std::vector<double> x0_, dx0_, lower_, upper_, lower_dx_, upper_dx_;  ///< (width)
};

/// The registry entry of SecondOrderIntegrator.
BlockType SecondOrderIntegratorType();

}  // namespace twinblocks::blocks
