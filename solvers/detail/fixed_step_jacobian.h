#pragma once

// What the fixed-step implicit methods (ode1be, ros2, avf) share: their evaluations of f, the
// Jacobian kept over jacobian_steps steps, and the factors of W = I - gamma h J.

#include <Eigen/Core>
#include <string_view>

#include "solvers/detail/iteration_matrix.h"
#include "solvers/detail/step_helpers.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers::internal {

/// J = df/dx formed at a step's first evaluation, anew every step or every
/// options.jacobian_steps steps, and W = I - gamma h J factored when J or gamma h changes.
/// Every failure is a SolverError naming the solver, the time and the state. Allocates only in
/// its constructor (and as IterationMatrix says).
class FixedStepJacobian {
 public:
  /// `uses_dfdt`: also form T = df/dt with each J (ros2 on a problem that depends on t).
  /// @throws std::invalid_argument when options.jacobian_steps is set below 1.
  FixedStepJacobian(std::string_view solver, OdeProblem* problem, const IntegratorOptions& options,
                    bool uses_dfdt);

  /// f(t, x) into `out`, counted in `stats`; throws SolverError at `t_from` (the step's start)
  /// when the problem fails or a derivative is NaN or infinite.
  void Evaluate(double t, const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> out, double t_from,
                IntegratorStats* stats);

  /// Makes W = I - gamma_h J ready for the step's solves: J formed anew at (t, x), where
  /// f0 = f(t, x) was just evaluated, unless the last one serves, and factored unless the
  /// factors of the same J and gamma_h are at hand. A kept J whose W is singular is formed
  /// anew once before the step fails.
  void Prepare(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double gamma_h,
               double t_from, IntegratorStats* stats);

  /// Forms J anew at (t, x), where f = f(t, x) was just evaluated, and factors W for gamma_h,
  /// whatever the age of the last: a Newton iteration's update of its matrix.
  void Refresh(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f, double gamma_h,
               double t_from, IntegratorStats* stats) {
    age_ = -1;
    Prepare(t, x, f, gamma_h, t_from, stats);
  }

  /// Solves W y = b in place, with the factors of the last Prepare.
  void Solve(Eigen::Ref<Eigen::VectorXd> b) { W_.Solve(b); }
  /// T = df/dt from the last J (zero unless uses_dfdt).
  const Eigen::VectorXd& time_derivative() const { return W_.time_derivative(); }

  /// An accepted step: the kept J is a step older.
  void StepTaken() { ++age_; }

  /// The numbers Save writes.
  size_t memory_size() const;
  /// Appends the matrix's memory (and a kept J) to a solver's snapshot.
  void Save(MemoryWriter& out) const;
  /// Reads back what Save wrote.
  void Restore(MemoryReader& in);

 private:
  void Form(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double t_from,
            IntegratorStats* stats);

  std::string_view solver_;
  OdeProblem* problem_;
  int nx_;
  bool uses_dfdt_;
  double fixed_step_;
  IterationMatrix W_;
  int jacobian_steps_ = 1;         // accepted steps one J serves (options.jacobian_steps, unset: 1)
  int age_ = -1;                   // steps taken since J was formed (-1: none yet)
  double factored_gamma_h_ = 0.0;  // the gamma h of W's factors (0: none)
};

}  // namespace twinblocks::solvers::internal
