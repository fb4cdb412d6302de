#pragma once

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "solvers/butcher_tableau.h"
#include "solvers/detail/fixed_step_grid.h"
#include "solvers/detail/fixed_step_zero_crossings.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// A fixed-step explicit Runge-Kutta method given by its Butcher tableau: ode1 ... ode5.
///
/// Each Step takes h = min(options.fixed_step, t_stop - t). A step that would end within
/// 1e-9 h of t_stop is stretched or shortened to end on it, so no sliver step is ever taken,
/// and t_stop is then returned bitwise. Between two landings the times are computed as
/// t_base + n h rather than accumulated, so a long run does not drift off the grid.
/// Zero crossings are located only with options.fixed_step_zero_crossings (off by default, as
/// in Simulink's fixed-step solvers): a step that crosses then ends just past the crossing
/// (internal::FixedStepZeroCrossings).
class ExplicitRungeKuttaIntegrator final : public Integrator {
 public:
  /// @param name the solver's user-facing name ("ode4").
  /// @param tableau an explicit method; only a, b and c are used.
  /// @throws std::invalid_argument when options.fixed_step is not positive and finite.
  ExplicitRungeKuttaIntegrator(std::string name, ButcherTableau tableau, OdeProblem* problem,
                               const IntegratorOptions& options);

  std::string_view name() const override { return name_; }
  bool is_fixed_step() const override { return true; }
  void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;
  StepResult Step(double t_stop) override;

  const ButcherTableau& tableau() const { return tableau_; }

 protected:
  /// The grid the steps are taken on: where it started and how many steps since.
  void DoSaveMemory(std::vector<double>* memory) const override;
  void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) override;

 private:
  // For a failure where x holds a state past 1e100 (or not finite): what a step too long for
  // the model's dynamics does, and what to try; "" otherwise.
  std::string UnboundedGrowthHint(const Eigen::VectorXd& x, double h) const;

  std::string name_;
  ButcherTableau tableau_;
  int nx_;
  internal::FixedStepGrid grid_;  // where the steps end
  internal::FixedStepZeroCrossings crossings_;
  Eigen::MatrixXd k_;        // (nx x s) stage derivatives
  Eigen::VectorXd x_stage_;  // (nx x 1) argument of the current stage
  Eigen::VectorXd x_new_;    // (nx x 1) candidate state at the end of the step
};

}  // namespace twinblocks::solvers
