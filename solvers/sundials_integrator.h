#pragma once

#include <nvector/nvector_serial.h>

#include <Eigen/Core>
#include <array>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/detail/step_helpers.h"
#include "solvers/detail/sundials_handles.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// What CVODE, ARKODE and IDA integrators share: the SUNContext and state vector, the
/// capture of SUNDIALS' error messages, exception-safe callbacks, stop-time handling, the
/// mapping of root returns to StepResult, NaN checks and the statistics.
///
/// Step runs the solver in one-step mode with the stop time set to t_stop; when the stop
/// time is reached time() is t_stop bitwise. A gap to t_stop of at most 100 ulp (too short
/// for SUNDIALS to start a step) is closed with one explicit Euler step and the solver is
/// restarted there on the next Step. After a root return the solver is also restarted at the
/// root on the next Step unless the caller resets it first (it normally does).
class SundialsIntegrator : public Integrator {
 public:
  ~SundialsIntegrator() override;

  std::string_view name() const override { return name_; }
  bool is_fixed_step() const override { return false; }
  void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) final;
  StepResult Step(double t_stop) final;
  bool has_dense_output() const override { return true; }
  /// The solver's own interpolating polynomial over its last step.
  void Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) final;

 protected:
  /// Return codes shared by CVODE, ARKODE and IDA (CV_TSTOP_RETURN == ARK_TSTOP_RETURN ...).
  static constexpr int kTstopReturn = 1;
  static constexpr int kRootReturn = 2;

  /// @param nx number of states (size of y_).
  /// @param ng number of root functions to install (0: none).
  SundialsIntegrator(std::string name, OdeProblem* problem, const IntegratorOptions& options,
                     int nx, int ng);

  /// (Re)starts the solver at (t, y_), calling CountersRestarted() right after the ReInit.
  virtual void DoReInit(double t) = 0;
  /// Sets the solver's stop time.
  virtual void DoSetStopTime(double t_stop) = 0;
  /// Takes one step toward t_stop into y_; returns the solver's flag (< 0: failure).
  virtual int DoStep(double t_stop, double* t_reached) = 0;
  /// Fills root_info_ after a root return.
  virtual void DoGetRootInfo() = 0;
  /// The solver's interpolant at t inside its last step (CVodeGetDky and kin), into `out`.
  virtual int DoGetDky(double t, N_Vector out) = 0;
  /// Reads the solver's cumulative counters since its last (Re)Init.
  virtual void DoReadCounters(IntegratorStats* counters) = 0;
  /// The solver's name for a return flag ("CV_TOO_MUCH_WORK").
  virtual std::string FlagName(int flag) const = 0;
  /// Name of the stepping function, for messages ("CVode").
  virtual const char* step_function_name() const = 0;
  /// Advances x_ by a gap too short for the solver (h <= 100 ulp of t): explicit Euler.
  virtual void DoAdvanceTinyGap(double h);
  /// Reads the solver's estimated local errors and error weights of its last step attempt
  /// into `ele` and `ewt` (CVodeGetEstLocalErrors and kin); false when it has none.
  virtual bool DoGetLocalErrors(N_Vector ele, N_Vector ewt) { return false; }
  /// State i as the user knows it, for messages.
  virtual std::string DescribeState(int i) const { return problem_->DescribeState(i); }

  /// Throws SolverError naming `function` when flag < 0.
  void CheckFlag(int flag, const char* function);
  /// Throws SolverError naming `function`, `reason` and the captured messages; for a failure
  /// of the steps themselves (`step_failure`: too much work, repeated error-test or
  /// convergence failures, an underflow) also the state with the largest weighted local
  /// error, where the model is hardest to follow.
  [[noreturn]] void ThrowError(const char* function, const std::string& reason,
                               bool step_failure = false);
  /// Call right after the solver's (Re)Init: later counters count from there.
  void CountersRestarted();
  /// Takes one throwaway step of y' = -y from y = 0 (the callbacks answer it without calling
  /// the problem) so that SUNDIALS does its lazy first-step allocations (linear-solver and
  /// interpolation memory) in the constructor instead of in the first Step. Call at the end of
  /// the subclass constructor, after the solver is set up at t = 0 with y_ = 0.
  void WarmUp();
  bool warming_up() const { return warming_up_; }

  /// Counts one evaluation of the zero-crossing functions.
  void CountZeroCrossingEval() { ++own_.zc_evals; }
  /// Restarts the solver at (t, x_) (folding its counters into the totals).
  void Restart(double t);
  /// Counts a step attempt rejected outside the solver's own counters.
  void CountRejectedStep() { ++own_.rejected_steps; }
  /// The code the last failed evaluation of f returned (0 after a successful one).
  int last_rhs_flag() const { return last_rhs_flag_; }

  /// Counts one evaluation of f (or F) made outside the solver's own counters.
  void CountResidualEval() { ++own_.rhs_evals; }
  /// Counts one Jacobian evaluation. SUNDIALS' own count is not used: its linear solver
  /// interface zeroes it at the first step after a ReInit, not at the ReInit, so the count
  /// read at a restart would be subtracted from one that no longer includes it.
  void CountJacobianEval() { ++own_.jacobian_evals; }
  /// Records the message of a failed callback for the next SolverError.
  void RecordCallbackError(const char* format, ...);
  /// A callback's message text, "" for none.
  static const char* Text(const char* s) { return s != nullptr ? s : ""; }
  /// Runs the body of a C callback so that no exception crosses into SUNDIALS: the body's
  /// return code passes through; an exception is recorded ("`what` threw at t = ...: text")
  /// and becomes -1, a fatal failure.
  template <class Body>
  int Guarded(const char* what, double t, Body&& body) noexcept {
    try {
      return body();
    } catch (const std::exception& e) {
      RecordCallbackError("%s threw at t = %.17g s: %s", what, t, e.what());
    } catch (...) {
      RecordCallbackError("%s threw at t = %.17g s", what, t);
    }
    return -1;
  }

  /// Dense Jacobian of f into `jac`. With options.jacobian_method kProblem, the problem's own
  /// (OdeProblem::CalcJacobian), after an evaluation of f at (t, y) that puts the problem
  /// there. Otherwise difference quotients (column j = (f(t, y + d_j e_j) - f(t, y)) / d_j,
  /// with CVODE's increments d_j = max(sqrt(eps) |y_j|, d_min / w_j), w the error weights in
  /// ewt_, d_min = 1000 |h| eps nx ||f||_w). SUNDIALS 6.4's own dense DQ Jacobians allocate
  /// an N_Vector header per call, which breaks the allocation-free loop. `work` is a scratch
  /// vector of size nx.
  int CalcDenseJacobian(double t, N_Vector y, N_Vector fy, SUNMatrix jac, double h, N_Vector work);
  int CalcProblemJacobian(double t, N_Vector y, SUNMatrix jac, N_Vector work);
  /// What became of a problem's Jacobian in `jac` (nx x nx, dense): its failure code passed on
  /// with `problem_error`, 1 for a row that is not finite (recorded, so that the solver's
  /// failure names it), else 0.
  int CheckProblemJacobian(double t, int flag, const char* problem_error, SUNMatrix jac);

  /// The absolute tolerances as SUNDIALS takes them, one per state (options.state_atol, grown
  /// under options.scale_atol), or null when every state has options.atol and keeps it (the
  /// solver then gets the scalar).
  N_Vector absolute_tolerances() const { return atol_.get(); }
  /// True under options.scale_atol: the solver then takes its error weights from
  /// ErrorWeightsCallback (CVodeWFtolerances & co.), which reads absolute_tolerances() as they
  /// grow. (SUNDIALS 6.4's SVtolerances cannot be called between steps: they clear the
  /// weights' user data until the next Init.)
  bool scales_tolerances() const { return atol_scaling_.on() && nx_ > 0; }
  /// w_i = 1 / (rtol |y_i| + atol_i), SUNDIALS' own weights with the grown tolerances.
  static int ErrorWeightsCallback(N_Vector y, N_Vector ewt, void* user_data);

  /// Under options.scale_atol, the tolerances the run has grown; else nothing.
  void DoSaveMemory(std::vector<double>* memory) const override;
  void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) override;

  /// Callback bodies: never throw, pass the problem's return codes through, and turn a NaN
  /// or Inf derivative into a recoverable failure (+1) so that the solver retries smaller.
  int EvalRhs(double t, N_Vector y, N_Vector ydot);
  int EvalRoots(double t, N_Vector y, double* g);

  /// C trampolines; user_data is the SundialsIntegrator.
  static int RhsCallback(double t, N_Vector y, N_Vector ydot, void* user_data);
  static int RootCallback(double t, N_Vector y, double* g, void* user_data);
  static void ErrorHandler(int error_code, const char* module, const char* function, char* msg,
                           void* user_data);

  std::string name_;
  int nx_;
  int ng_;
  internal::ContextPtr context_;    // destroyed last: declared first
  internal::NVectorPtr y_;          // (nx x 1) the solver's state
  internal::NVectorPtr ewt_;        // (nx x 1) error weights, for the Jacobian
  std::vector<int> root_info_;      // (ng x 1) CVodeGetRootInfo & co.
  std::vector<int> crossed_;        // capacity ng: the functions a root changed
  Eigen::VectorXd xdot_;            // (nx x 1) scratch for DoAdvanceTinyGap
  internal::NVectorPtr dky_;        // (nx x 1) scratch for Interpolate
  internal::NVectorPtr atol_;       // (nx x 1) per-state absolute tolerances, or null
  double t_step_start_ = 0.0;       // s, where the last step began
  bool step_interpolable_ = false;  // the last step was the solver's own (not a tiny gap)

 private:
  void UpdateStats();
  // Grows atol_ to the states x_ has reached (options.scale_atol).
  void ScaleTolerances();

  bool warming_up_ = false;
  int last_rhs_flag_ = 0;
  bool needs_restart_ = false;  // the solver's internal time is not t_
  bool solver_live_ = false;    // counters_at_restart_ is valid
  IntegratorStats finished_;    // counters of earlier solver runs (before the last ReInit)
  IntegratorStats counters_at_restart_;
  /// Counted here rather than read from the solver: resets, crossings, tiny-gap steps and
  /// zero-crossing evaluations (ARKODE 6.4 leaves its counter of them uninitialized).
  IntegratorStats own_;
  internal::AbsoluteToleranceScaling atol_scaling_;
  std::array<char, 1024> solver_message_{};    // last message of SUNDIALS' error handler
  std::array<char, 1024> callback_message_{};  // last failure inside a callback
};

}  // namespace twinblocks::solvers
