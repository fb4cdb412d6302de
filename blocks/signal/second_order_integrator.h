#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// x'' = u as two continuous states, x and dx = x' (Simulink's Second-Order Integrator), with
/// optional limits on x and on dx. What one block adds over two Integrators is that the
/// states know of each other: when x reaches a limit, dx is stopped there (or reinitialized,
/// a bounce), and the pair can come to rest on the limit, which two Integrators cannot: past a
/// bouncing ball's Zeno time they lose it through the floor.
///
/// Storage: continuous states [x (width), dx (width)]; modes: [x limit mode per element (-1
/// held at lower, 0 free, +1 held at upper)][dx limit mode per element, likewise]; zero
/// crossings: [x - lower, x - upper, u (while held) per element, if x is limited][the same for
/// dx, if dx is limited]; dwork: per element, if x is limited, the side of the limit x
/// bounced off at the last major step (0: none).
class SecondOrderIntegrator final : public Block {
 public:
  /// @throws BlockError when a lower limit is above its upper one, x is limited but the dx
  /// limits exclude 0 (x could not stop at its limit), min_flight < 0, or widths disagree.
  explicit SecondOrderIntegrator(const Params& params);

  int DefaultInputWidth() const override { return width_param_; }

 protected:
  /// @throws BlockError when a vector parameter or dx_reinit does not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// At a major step with x on a limit (`side` -1 lower, +1 upper): stops or bounces dx and
  /// says whether x stays held there. `reinit` is dx_reinit's value, `u` the input.
  bool SettleOnLimit(double t, int side, double u, double reinit, double* dx) const;

  Eigen::VectorXd x0_param_, dx0_param_, lower_param_, upper_param_, lower_dx_param_,
      upper_dx_param_;
  int width_param_ = 1;
  bool limited_x_ = false, limited_dx_ = false, reinit_ = false;
  double min_flight_ = 0.0;
  int in_reinit_ = -1;  ///< input port index of dx_reinit, -1 when absent
  int out_x_ = 0, out_dx_ = 1;
  // Fixed by DoConfigure.
  int width_ = 1;
  int u_stride_ = 1, reinit_stride_ = 0;
  std::vector<double> x0_, dx0_, lower_, upper_, lower_dx_, upper_dx_;  ///< (width)
};

/// The registry entry of SecondOrderIntegrator.
BlockType SecondOrderIntegratorType();

}  // namespace twinblocks::blocks
