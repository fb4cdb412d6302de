#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/ode_problem.h"

namespace twinblocks::solvers {

/// Where the solvers that use a Jacobian (ode23s, ros2, ode1be, CVODE, ARKODE's DIRK, IDA) get
/// J = df/dx (IDA: its iteration matrix dF/dy + cj dF/dy'): Simulink's "Solver Jacobian
/// method".
enum class JacobianMethod {
  /// Each solver's own way: ode23s, ros2 and ode1be take the problem's Jacobian when it has
  /// one (OdeProblem::has_jacobian), otherwise differences; CVODE, ARKODE and IDA
  /// differences.
  kAuto,
  /// Forward differences of f, one evaluation per state: the whole J, couplings included.
  kPerturbation,
  /// The problem's own (OdeProblem::CalcJacobian, DaeProblem::CalcJacobian for IDA), for
  /// every solver that uses one: no evaluation of f per state. MakeIntegrator and
  /// MakeDaeIntegrator refuse it for a problem that has none.
  kProblem,
};

/// Settings shared by every integrator. Fixed-step integrators use `fixed_step`; the others
/// use the tolerances and step bounds.
struct IntegratorOptions {
  double rtol = 1e-3;  ///< relative tolerance
  double atol = 1e-6;  ///< absolute tolerance
  /// Absolute tolerances state by state (the blocks' own, Simulink's block parameter
  /// "Absolute tolerance"), each > 0; empty: `atol` for every state. For a residual problem
  /// (ida), one per entry of y. Fixed-step solvers have no error test and ignore it.
  Eigen::VectorXd state_atol;
  /// Simulink's "Auto scale absolute tolerance": after each accepted step (and at each
  /// restart) the absolute tolerance of each state grows to rtol times the largest |x_i| the
  /// state has reached, from its given value (atol or state_atol) up, never down. A state of
  /// size 1e6 then has its error measured against 1e6 rtol, not against atol, as soon as it is
  /// that large, and keeps it when it passes through zero.
  bool scale_atol = false;
  /// Under scale_atol, per state (empty: none): true where the tolerance stays as given (a
  /// block's own absolute tolerance, an algebraic variable of ida).
  Eigen::Array<bool, Eigen::Dynamic, 1> fixed_atol;
  double fixed_step = 1e-3;                                   ///< s, fixed-step solvers
  double max_step = std::numeric_limits<double>::infinity();  ///< s, 0 or inf: unbounded
  double initial_step = 0.0;                                  ///< s, 0: chosen by the solver
  double min_step = 0.0;                                      ///< s, below this a step fails
  long max_steps = 0;                                         ///< per Step call, 0: default
  bool locate_zero_crossings = true;                          ///< variable-step only
  /// Fixed-step solvers: locate zero crossings inside the steps too, ending a step just past
  /// each (Simulink's "Enable zero-crossing detection for fixed-step simulation"). Off by
  /// default, as in Simulink: the steps then all lie on the grid, and a crossing takes effect
  /// at the end of the step it falls in.
  bool fixed_step_zero_crossings = false;
  /// The solvers that use a Jacobian: accepted steps one Jacobian serves at most, >= 1.
  /// Unset, each keeps its own rule: ode23s, ros2 and ode1be form a new one every step (as
  /// MATLAB's ode23s); CVODE and ARKODE's DIRK form one every 51 steps or sooner when their
  /// Newton iteration or the step size asks (SUNDIALS' rule). MakeIntegrator refuses it for
  /// the solvers that form none (the explicit ones) and for ida (IDA has no such setting).
  std::optional<int> jacobian_steps;
  /// Where the solvers that use a Jacobian get it. MakeIntegrator refuses anything but kAuto
  /// for the solvers that use none (the explicit ones).
  JacobianMethod jacobian_method = JacobianMethod::kAuto;
};

/// "auto", "perturbation" or "problem" (for messages).
const char* JacobianMethodName(JacobianMethod method);

/// Counters a run reports at its end.
struct IntegratorStats {
  long steps = 0;           ///< accepted steps
  long rejected_steps = 0;  ///< error-test and convergence failures
  long rhs_evals = 0;       ///< evaluations of f (or of the residual F)
  long zc_evals = 0;        ///< evaluations of the zero-crossing functions
  long zero_crossings = 0;  ///< located crossings
  long jacobian_evals = 0;  ///< Jacobian (or iteration matrix) evaluations
  long resets = 0;          ///< restarts after discontinuities
  /// ode45: the time at which its steps were found bounded by stability rather than by
  /// accuracy (Hairer's stiffness test), the model stiff there; NaN when they never were (or
  /// the solver does not test).
  double stiff_since = std::numeric_limits<double>::quiet_NaN();
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

/// What an integrator carries from one accepted step to the next, for saving and restoring a
/// simulation (Integrator::SaveState). Reused between saves, it allocates only the first time.
struct IntegratorSnapshot {
  double t = 0.0;     ///< s, time of the last accepted step
  Eigen::VectorXd x;  ///< (nx x 1) state at t
  /// The method's own memory, in an order only it reads: step-size history, the FSAL stage,
  /// the dense output of the last step, zero-crossing values at t. Empty for methods that
  /// restart at a restored point instead (SUNDIALS).
  std::vector<double> memory;
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

  /// The solver's name as the user selects it (ode45, cvode-bdf, ...).
  virtual std::string_view name() const = 0;
  virtual bool is_fixed_step() const = 0;
  /// True for multistep methods (CVODE, IDA): a Reset drops the history their order is built
  /// on, and they start again at order 1 with a small first step. A one-step method loses
  /// nothing it cannot take up again in its next step.
  virtual bool restart_drops_history() const { return false; }

  /// (Re)starts integration at (t, x): at the start and after any discontinuity (a state
  /// reset, a zero crossing, a sample hit that changed an input). Keeps the last step size
  /// as a guess where the method allows.
  virtual void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) = 0;

  /// Continues from (t, x) after a correction that leaves the right-hand side continuous: the
  /// state put back onto an invariant it drifted from (a mechanism's closed loops), by about
  /// the step's own error, at the last step's end or at a time inside it (whose rest is then
  /// dropped). Nothing jumped, so a one-step method goes on with the step its controller
  /// proposed, where a Reset would start again from the last step taken; a method whose
  /// history a Reset drops restarts (the default).
  virtual void CorrectState(double t, const Eigen::Ref<const Eigen::VectorXd>& x) { Reset(t, x); }

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

  /// Writes everything the next Step depends on into `out` (allocating only when `out` is
  /// smaller than needed). Counters (stats()) are not part of it: they count the work done.
  void SaveState(IntegratorSnapshot* out) const {
    out->t = t_;
    out->x = x_;
    out->memory.clear();
    DoSaveMemory(&out->memory);
  }

  /// Puts the integrator back where SaveState found it, so that the following steps are
  /// bitwise those that followed the save (for methods that save their memory). Methods
  /// that do not (CVODE, ARKODE, IDA) restart at the saved point as after a Reset: the
  /// steps then differ from the original ones within the tolerances, and repeat bitwise
  /// from one restore to the next. Does not allocate for the explicit Runge-Kutta methods.
  /// @throws std::invalid_argument when the snapshot's sizes are not this integrator's.
  void RestoreState(const IntegratorSnapshot& in) {
    if (in.x.size() != x_.size()) {
      throw std::invalid_argument(std::string(name()) + ": snapshot of " +
                                  std::to_string(in.x.size()) + " states, the problem has " +
                                  std::to_string(x_.size()));
    }
    DoRestoreState(in.t, in.x, in.memory);
  }

  /// Time and state after the last accepted step (or Reset).
  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return x_; }

  const IntegratorStats& stats() const { return stats_; }
  const IntegratorOptions& options() const { return options_; }

 protected:
  Integrator(OdeProblem* problem, const IntegratorOptions& options)
      : problem_(problem), options_(options) {}

  /// Appends the method's memory (see IntegratorSnapshot::memory). Default: nothing.
  virtual void DoSaveMemory(std::vector<double>* memory) const {}
  /// Sets t_ and x_ to (t, x) and reads back what DoSaveMemory wrote, checking its size
  /// before changing anything. Default: a restart at (t, x), as after a discontinuity.
  /// @throws std::invalid_argument when `memory` has the wrong size.
  virtual void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) {
    Reset(t, x);
  }

  /// What every Reset starts with: checks x's size against the problem's, counts a restart
  /// (IntegratorStats::resets) after the first start, and takes t and x.
  /// @throws std::invalid_argument when x has the wrong size.
  void StartAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x);

  OdeProblem* problem_;
  IntegratorOptions options_;
  IntegratorStats stats_;
  bool started_ = false;  ///< Reset has been called: Step may run
  double t_ = 0.0;
  Eigen::VectorXd x_;
};

/// The names MakeIntegrator accepts, in the order the docs list them.
const std::vector<std::string>& IntegratorNames();

/// One line describing the named solver, for `twinblocks run --help` and docs.
std::string_view IntegratorDescription(std::string_view name);

/// True for the solvers that form a dense Jacobian (nx x nx) or iteration matrix: ode23s, ros2,
/// ode1be, cvode-bdf, cvode-adams, arkode-dirk and ida.
bool IntegratorFormsJacobian(std::string_view name);

/// Creates the integrator called `name` (Simulink's names where one exists: ode1 ode2 ode3
/// ode4 ode5 ode1be ode23 ode45; the literature's for ros2; SUNDIALS' otherwise: cvode-bdf
/// cvode-adams arkode-erk arkode-dirk ida). `ida` treats the ODE as the residual x' - f(t, x) = 0.
/// @throws std::invalid_argument naming the valid solvers when `name` is unknown.
std::unique_ptr<Integrator> MakeIntegrator(std::string_view name, OdeProblem* problem,
                                           const IntegratorOptions& options);

/// Creates an IDA integrator for a problem in residual form. Its state() is y.
std::unique_ptr<Integrator> MakeDaeIntegrator(DaeProblem* problem,
                                              const IntegratorOptions& options);

}  // namespace twinblocks::solvers
