#pragma once

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "solvers/butcher_tableau.h"
#include "solvers/detail/step_helpers.h"
#include "solvers/detail/zero_crossing_locator.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// How an EmbeddedRungeKuttaIntegrator interpolates inside an accepted step.
enum class DenseOutput {
  kDormandPrince,  ///< the fourth-order continuous extension of DOPRI5 (needs the DP tableau)
  kHermite,        ///< cubic Hermite from both end states and derivatives (third order)
};

/// A variable-step explicit Runge-Kutta pair with FSAL (ode45, ode23), after Hairer's DOPRI5.
///
/// Error control: the local error estimate e = h sum (b_i - b_hat_i) k_i is measured in the
/// mixed norm sqrt(mean((e_i / (atol + rtol max(|x_i|, |x_new_i|)))^2)); a step is accepted
/// when the norm is <= 1. Step sizes come from a PI controller (Lund stabilization, as in
/// DOPRI5) with safety factor 0.9 and a step ratio in [0.2, 10]; after a rejection the step
/// does not grow. The first step is Hairer's heuristic unless options.initial_step > 0.
///
/// Zero crossings are located on the dense output with the Illinois method (modified regula
/// falsi, all functions at once, earliest first) until the bracket is no wider than
/// max(4 eps max(|t|, |h|), 1e-14) s. The step then ends at the right end of that bracket,
/// where the crossed functions have already changed sign (or are exactly zero). A function
/// that is exactly zero at the start of a step (after a Reset onto the switching surface)
/// takes its sign from a probe 100 ulp later along f, so that it cannot hide a crossing.
///
/// Stiffness (Hairer, Norsett & Wanner, Solving ODEs I, Sect. II.10; their DOPRI5): where the
/// last two stages are both at t + h (Dormand-Prince's sixth and seventh), their difference
/// estimates the Jacobian's dominant eigenvalue along the step, h |lambda| ~ h |k_s - k_s-1| /
/// |x_new - x_s-1|. Fifteen accepted steps with h |lambda| past 98 % of the method's stability
/// boundary (3.31 for DOPRI5; six steps below it start the count again) mean that stability,
/// not accuracy, bounds the steps: the model is stiff there, and a stiff solver would take
/// far longer steps. stats().stiff_since then holds the time. ode23's stages share no node,
/// so it does not test.
class EmbeddedRungeKuttaIntegrator final : public Integrator {
 public:
  /// @param tableau an explicit FSAL pair with b_hat.
  /// @param pi_beta the PI controller's beta (0.04 for DOPRI5, 0 for a pure I controller).
  /// @throws std::logic_error when the tableau is not an FSAL pair.
  EmbeddedRungeKuttaIntegrator(std::string name, ButcherTableau tableau, DenseOutput dense,
                               double pi_beta, OdeProblem* problem,
                               const IntegratorOptions& options);

  std::string_view name() const override { return name_; }
  bool is_fixed_step() const override { return false; }

  /// Evaluates f (and g) at (t, x) since the right-hand side may have jumped, and keeps the
  /// last accepted step size as the first guess.
  void Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;
  /// Evaluates f (and g) at the corrected state, and keeps the step-size controller as it is.
  void CorrectState(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;
  StepResult Step(double t_stop) override;

  bool has_dense_output() const override { return true; }
  /// Dense output of the last accepted step: DOPRI5's fourth-order continuous extension for
  /// ode45, cubic Hermite for ode23. After a located crossing it still covers the step up to
  /// the crossing.
  void Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) override;

  /// The size the next step will try (s), 0 before the first step.
  double next_step_size() const { return h_next_; }

 protected:
  /// Step-size controller history, the FSAL derivative, the last step's dense output and
  /// the zero-crossing values at t.
  void DoSaveMemory(std::vector<double>* memory) const override;
  void DoRestoreState(double t, const Eigen::VectorXd& x, std::span<const double> memory) override;

 private:
  double InitialStepSize(double t_stop, double h_max);
  int EvalDerivatives(double t, const Eigen::VectorXd& x, int column);
  // Takes (t, x) and evaluates f there (the FSAL stage) and g, for Reset and CorrectState.
  void EvaluateAtRestart(double t, const Eigen::Ref<const Eigen::VectorXd>& x);
  void ProbeZeroStartValues();
  void PrepareDenseOutput();
  // Keeps the dense output of the step being accepted for use after Step returns.
  void CaptureDenseOutput();
  // Writes the dense output of the step being accepted at t in [t_step_, t_step_ + h_step_].
  void Interpolate(double t, Eigen::VectorXd* x) const;
  double LocateZeroCrossing();
  // Hairer's stiffness test on the step just accepted (see the class comment).
  void TestStiffness(double h);
  [[noreturn]] void ThrowEvaluationFailure(const char* what, int flag, double t) const;

  std::string name_;
  ButcherTableau tableau_;
  DenseOutput dense_;
  double pi_beta_;
  // h |lambda| above which a step counts as bounded by stability; 0 when the tableau's last
  // two stages are not at one node (no test).
  double stiff_step_ = 0.0;
  int stiff_steps_ = 0;     // accepted steps in a row (but for up to five) past stiff_step_
  int nonstiff_steps_ = 0;  // accepted steps in a row below it
  Eigen::VectorXd e_;       // (s x 1) b - b_hat
  int nx_;
  Eigen::VectorXd atol_;                             // (nx x 1) absolute tolerance of each state
  internal::AbsoluteToleranceScaling atol_scaling_;  // grows atol_ (scale_atol)
  int ng_;                   // zero-crossing functions located (0 when location is off)
  bool fsal_valid_ = false;  // k_.col(0) holds f(t_, x_)
  double h_next_ = 0.0;      // s, proposed size of the next step, 0: estimate it
  double h_last_ = 0.0;      // s, last accepted step, before any cut to land on t_stop
  double err_old_ = 1e-4;    // error norm of the last accepted step (PI controller)
  int last_nonfinite_ = -1;  // state whose derivative went bad in the last rejection

  // The step being accepted, for dense output: from (t_step_, x_) to (t_step_ + h_step_, x_new_).
  double t_step_ = 0.0;
  double h_step_ = 0.0;
  double t_step_end_ = 0.0;  // exactly t_stop when the step lands on it

  Eigen::MatrixXd k_;             // (nx x s) stage derivatives; col 0 is f(t_, x_)
  Eigen::VectorXd x_stage_;       // (nx x 1)
  Eigen::VectorXd x_new_;         // (nx x 1) candidate end state
  Eigen::VectorXd err_;           // (nx x 1) local error estimate
  Eigen::MatrixXd dense_coeffs_;  // (nx x 4) DOPRI5 continuous extension r2..r5
  Eigen::VectorXd x_interp_;      // (nx x 1)
  // The last accepted step's dense output, valid after Step returns: start state, start time,
  // size, and coefficients (DOPRI5: r2..r5; Hermite: x1 - x0, f0, f1).
  Eigen::VectorXd dense_base_;   // (nx x 1)
  Eigen::MatrixXd dense_saved_;  // (nx x 4)
  double dense_t0_ = 0.0;
  double dense_h_ = 0.0;
  bool dense_valid_ = false;
  internal::ZeroCrossingLocator locator_;
  Eigen::VectorXd g0_;       // (ng x 1) g at (t_, x_)
  Eigen::VectorXd g1_;       // (ng x 1) g at the end of the step
  Eigen::VectorXd g_probe_;  // (ng x 1) g just after a start on a switching surface
};

}  // namespace twinblocks::solvers
