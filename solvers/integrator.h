#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/ode_problem.h"

namespace twinblocks::solvers {

/// Settings shared by every integrator. Fixed-step integrators use `fixed_step`; the others
/// use the tolerances and step bounds.
struct IntegratorOptions {
  double rtol = 1e-3;                                         ///< relative tolerance
  double atol = 1e-6;                                         ///< absolute tolerance
  double fixed_step = 1e-3;                                   ///< s, fixed-step solvers
  double max_step = std::numeric_limits<double>::infinity();  ///< s, 0 or inf: unbounded
  double initial_step = 0.0;                                  ///< s, 0: chosen by the solver
  double min_step = 0.0;                                      ///< s, below this a step fails
  long max_steps = 0;                                         ///< per Step call, 0: default
  bool locate_zero_crossings = true;                          ///< variable-step only
};

/// Counters a run reports at its end.
struct IntegratorStats {
  long steps = 0;           ///< accepted steps
  long rejected_steps = 0;  ///< error-test and convergence failures
  long rhs_evals = 0;       ///< evaluations of f (or of the residual F)
  long zc_evals = 0;        ///< evaluations of the zero-crossing functions
  long zero_crossings = 0;  ///< located crossings
  long jacobian_evals = 0;  ///< Jacobian (or iteration matrix) evaluations
  long resets = 0;          ///< restarts after discontinuities
};

/// A numerical failure during integration: carries the time it happened at.
class SolverError : public std::runtime_error {
 public:
  SolverError(const std::string& what, double t) : std::runtime_error(what), time_(t) {}
  double time() const { return time_; }

 private:
  double time_;
};

/// How one call to Integrator::Step ended.
struct StepResult {
  double t = 0.0;              ///< time reached (the end of the accepted step)
  bool zero_crossing = false;  ///< the step was cut short at a located zero crossing
  /// Indices of the functions that changed sign there; a view into the integrator, valid
  /// until its next Step (so that locating a crossing allocates nothing).
  std::span<const int> crossed;
};

/// Advances the continuous states of an OdeProblem one accepted step at a time. The caller
/// (the simulator) owns the schedule: it names a hard stop for every step (the next sample
/// hit, breakpoint or end time) and the integrator never steps past it, landing on it exactly
/// (the returned time compares equal to `t_stop`). After every discontinuity the caller
/// restarts the integrator with Reset.
class Integrator {
 public:
  virtual ~Integrator() = default;
  Integrator(const Integrator&) = delete;
  Integrator& operator=(const Integrator&) = delete;

  /// The solver's name as the user selects it ("ode45", "cvode-bdf", ...).
  virtual std::string_view name() const = 0;
  virtual bool is_fixed_step() const = 0;

  /// (Re)starts integration at (t, x): at the start and after any discontinuity (a state
  /// reset, a zero crossing, a sample hit that changed an input). Keeps the last step size
  /// as a guess where the method allows.
  virtual void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) = 0;

  /// Takes one accepted step, not past t_stop, and lands exactly on t_stop when it reaches
  /// it. Variable-step integrators locate sign changes of the problem's zero-crossing
  /// functions inside the step and end the step there (just past the crossing, within the
  /// solver's time tolerance). Throws SolverError on failure, with the state left at the
  /// last accepted step.
  virtual StepResult Step(double t_stop) = 0;

  /// True when the integrator keeps a continuous extension of its last step (dense output),
  /// so that Interpolate works. The simulator then writes output rows between steps instead
  /// of forcing the solver to stop at each output time.
  virtual bool has_dense_output() const { return false; }

  /// Writes x(t) (nx x 1) for t between the start of the last accepted step and time(),
  /// from the dense output. Does not allocate.
  /// @pre has_dense_output(), and t within the last step.
  virtual void Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) {
    throw std::logic_error(std::string(name()) + " has no dense output");
  }

  /// Time and state after the last accepted step (or Reset).
  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return x_; }

  const IntegratorStats& stats() const { return stats_; }
  const IntegratorOptions& options() const { return options_; }

 protected:
  Integrator(OdeProblem* problem, const IntegratorOptions& options)
      : problem_(problem), options_(options) {}

  OdeProblem* problem_;
  IntegratorOptions options_;
  IntegratorStats stats_;
  double t_ = 0.0;
  Eigen::VectorXd x_;
};

/// The names MakeIntegrator accepts, in the order the docs list them.
const std::vector<std::string>& IntegratorNames();

/// One line describing the named solver, for `twinblocks run --help` and docs.
std::string_view IntegratorDescription(std::string_view name);

/// Creates the integrator called `name` (Simulink's names where one exists: ode1 ode2 ode3
/// ode4 ode5 ode23 ode45; SUNDIALS' otherwise: cvode-bdf cvode-adams arkode-erk arkode-dirk
/// ida). `ida` treats the ODE as the residual x' - f(t, x) = 0.
/// @throws std::invalid_argument naming the valid solvers when `name` is unknown.
std::unique_ptr<Integrator> MakeIntegrator(std::string_view name, OdeProblem* problem,
                                           const IntegratorOptions& options);

/// Creates an IDA integrator for a problem in residual form. Its state() is y.
std::unique_ptr<Integrator> MakeDaeIntegrator(DaeProblem* problem,
                                              const IntegratorOptions& options);

}  // namespace twinblocks::solvers
