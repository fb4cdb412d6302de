#pragma once

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "solvers/detail/iteration_matrix.h"
#include "solvers/detail/step_helpers.h"
#include "solvers/detail/zero_crossing_locator.h"
#include "solvers/integrator.h"
#include "solvers/solver_table.h"

namespace twinblocks::solvers {

/// ode23s: the variable-step modified Rosenbrock pair of order 2(3) of Shampine and Reichelt
/// ("The MATLAB ODE Suite", SIAM J. Sci. Comput. 18(1), 1997, section 3.1), the stiff
/// solver of MATLAB and Simulink by that name. With d = 1 / (2 + sqrt 2), e32 = 6 + sqrt 2
/// and W = I - h d J:
///
///   F0 = f(t, x),                 W k1 = F0 + h d T
///   F1 = f(t + h/2, x + h/2 k1),  W (k2 - k1) = F1 - k1
///   x_new = x + h k2                                      (order 2, L-stable)
///   F2 = f(t + h, x_new),         W k3 = F2 - e32 (k2 - F1) - 2 (k1 - F0) + h d T
///   error estimate = h/6 (k1 - 2 k2 + k3)                 (order 3)
///
/// The second-order formula is Wolfbrandt's W-method: it keeps its order with any matrix J,
/// so J is the problem's own (OdeProblem::CalcJacobian: the stiff terms a diagram's blocks
/// know, e.g. a mechanism's contact damping and friction) or forward differences. T = df/dt,
/// the column of t as a state, is formed with J as MATLAB's is: a forward difference in t
/// over sqrt(eps) max(|t|, h), one more evaluation; T = 0 for a problem that declares itself
/// autonomous (OdeProblem::is_autonomous). Without it the error estimate, third-order exact
/// only for the whole Jacobian, sees a stiff problem driven through t (x' = -1e4 (x - cos t)
/// - sin t) as 100 times less accurate than it is. J is formed at a step's start, by default at
/// every step. With options.jacobian_steps = n > 1 it serves n accepted steps, and is formed anew
/// sooner after a located zero crossing (a contact that closes or opens changes the stiff
/// terms at once) and for the retry of a rejected step that used an older J. W's factors are
/// kept while gamma h is unchanged (steps that land on a sample grid). A stale J costs
/// accuracy that the error estimate, exact only for the exact J, does not fully see: on the
/// G2 grasp, n = 2 moves the contact times by 0.2 ms and the object by 0.02 mm, what
/// tightening rtol from 1e-3 to 3e-4 does (docs/simulation.md).
///
/// Error control as the explicit pairs (EmbeddedRungeKuttaIntegrator): the estimate in the
/// norm sqrt(mean((e_i / (atol + rtol max(|x_i|, |x_new_i|)))^2)), a step accepted when it is
/// <= 1; the next step h (0.8 / err)^(1/3), within [h/5, 5 h], not growing after a
/// rejection. A singular W or a failed evaluation rejects the step and quarters it.
///
/// Dense output, per state: on the states J couples (W's active ones), Shampine and
/// Reichelt's continuous extension
///   x(t + s h) = x + h (s (1 - s) / (1 - 2 d) k1 + s (s - 2 d) / (1 - 2 d) k2),
/// which stays bounded on stiff components (second order when J is the exact Jacobian, first
/// when it is not); on the others, which the problem declares not stiff, the cubic Hermite
/// interpolant of x, F0, x_new and F2 (third order). Zero crossings are located on it
/// (internal::ZeroCrossingLocator), and output rows between steps are written from it.
class ModifiedRosenbrockIntegrator final : public Integrator {
 public:
  /// @throws std::invalid_argument for negative tolerances or both zero.
  ModifiedRosenbrockIntegrator(OdeProblem* problem, const IntegratorOptions& options);

  std::string_view name() const override { return solver_names::kOde23s; }
  bool is_fixed_step() const override { return false; }

  /// Evaluates g, then f, at (t, x) (the right-hand side may have jumped); keeps the last
  /// step size as the first guess.
  void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;
  /// Evaluates g, then f, at the corrected state, and keeps the proposed next step.
  void CorrectState(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;
  StepResult Step(double t_stop) override;

  bool has_dense_output() const override { return true; }
  void Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) override;

 protected:
  /// Step-size history, f at t, the last step's dense output and g at t; with
  /// jacobian_steps > 1, J, its age, the gamma h of W's factors and T.
  void DoSaveMemory(std::vector<double>* memory) const override;
  void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) override;

 private:
  /// f(t, x) into `out`: 0, or the problem's positive flag (also for a NaN or Inf entry).
  /// Throws SolverError for a negative flag.
  int Evaluate(double t, const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> out);
  /// Evaluate, throwing SolverError for any failure (at a step's start there is no smaller
  /// step to try).
  void EvaluateAtStart();
  void EvaluateZeroCrossings(double t, const Eigen::VectorXd& x, Eigen::VectorXd& g);
  /// Takes (t, x) and evaluates g and f there, for Reset and CorrectState.
  void EvaluateAtRestart(double t, const Eigen::Ref<const Eigen::VectorXd>& x);
  void ProbeZeroStartValues();
  double InitialStepSize(double t_stop, double h_max) const;
  /// The dense output of the step being accepted (see the class comment).
  void CaptureDenseOutput();
  /// J at (t_, x_), where F0_ must be the problem's last evaluation, and T there.
  void FormJacobian();
  [[noreturn]] void ThrowFailure(const std::string& what, double t) const;

  int nx_;
  Eigen::VectorXd atol_;                             // (nx) absolute tolerance of each state
  internal::AbsoluteToleranceScaling atol_scaling_;  // grows atol_ (scale_atol)
  int ng_;  // zero-crossing functions located (0 when location is off)
  /// F0_ holds f(t_, x_), and it (or an evaluation at the same point by the caller between
  /// steps, its major step) was the problem's last evaluation: the Jacobian may be formed.
  bool f_current_ = false;
  double h_next_ = 0.0;      // s, proposed size of the next step, 0: estimate it
  double h_last_ = 0.0;      // s, last accepted step, before any cut to land on t_stop
  int last_nonfinite_ = -1;  // state whose derivative went bad in the last rejection
  int jacobian_steps_ = 1;   // accepted steps one J serves (options.jacobian_steps, unset: 1)
  int jacobian_age_ = -1;    // accepted steps since J was formed, -1: form it at the next step
  bool uses_dfdt_;           // the problem may depend on t itself: T is formed with J
  double factored_gamma_h_ = 0.0;  // gamma h of W's current factors, 0: none

  internal::IterationMatrix W_;
  internal::ZeroCrossingLocator locator_;
  Eigen::VectorXd F0_, F1_, F2_;  // (nx) f at the start, middle and end of the step
  Eigen::VectorXd k1_, k2_, k3_;  // (nx) stage slopes
  Eigen::VectorXd x_stage_;       // (nx) the midpoint argument
  Eigen::VectorXd x_new_;         // (nx) candidate end state
  Eigen::VectorXd err_;           // (nx) local error estimate
  Eigen::VectorXd x_interp_;      // (nx)
  double t_step_ = 0.0;           // the step being accepted: from t_step_ over h_step_
  double h_step_ = 0.0;
  // The last accepted step's dense output, valid after Step returns.
  // x(dense_t0_ + s dense_h_) = dense_x0_ + s c0 + s^2 c1 + s^3 c2, c = dense_c_.
  Eigen::VectorXd dense_x0_;  // (nx)
  Eigen::MatrixXd dense_c_;   // (nx x 3)
  double dense_t0_ = 0.0;
  double dense_h_ = 0.0;
  bool dense_valid_ = false;
  Eigen::VectorXd g0_, g1_, g_probe_;  // (ng) g at t_, at the step's end, just after t_
};

}  // namespace twinblocks::solvers
