#pragma once

// What the fixed-step implicit integrators (ode1be, ros2, avf) share beyond their step: the
// grid of their steps, their zero-crossing location, their Jacobian and iteration matrix, and
// the snapshot of all three.

#include <Eigen/Core>
#include <span>
#include <string_view>
#include <vector>

#include "solvers/detail/fixed_step_grid.h"
#include "solvers/detail/fixed_step_jacobian.h"
#include "solvers/detail/fixed_step_zero_crossings.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers::internal {

/// A fixed-step implicit method: steps of options.fixed_step on a grid restarted at every
/// Reset, zero crossings located as options.fixed_step_zero_crossings says, J and W kept by a
/// FixedStepJacobian. Subclasses take the step.
class FixedStepImplicitIntegrator : public Integrator {
 public:
  bool is_fixed_step() const override { return true; }
  void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;

 protected:
  /// `solver`: the name the errors give (the subclass's name()); `uses_dfdt` as
  /// FixedStepJacobian's.
  /// @throws std::invalid_argument when options.fixed_step is not positive and finite, or
  ///         options.jacobian_steps is below 1.
  FixedStepImplicitIntegrator(std::string_view solver, OdeProblem* problem,
                              const IntegratorOptions& options, bool uses_dfdt);

  /// The grid, the crossings' state and the Jacobian's memory.
  void DoSaveMemory(std::vector<double>* memory) const override;
  void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) override;
  /// Ends a step from (t_, x_) to *x_new: zero crossings located (f0 = f(t_, x_) where the
  /// method has it, else null), the state and time moved on, the grid and the kept J a step
  /// further. *x_new is left as scratch.
  StepResult FinishStep(const FixedStepGrid::Step& step, const Eigen::VectorXd* f0,
                        Eigen::VectorXd* x_new);
  /// After a Reset or a restore at x_: what a subclass keeps from the start (none by default).
  virtual void OnRestart() {}

  int nx_;
  FixedStepGrid grid_;     // where the steps end
  FixedStepJacobian jac_;  // J and the factors of W
  FixedStepZeroCrossings crossings_;
};

}  // namespace twinblocks::solvers::internal
