#include "solvers/embedded_runge_kutta_integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "solvers/detail/step_helpers.h"
#include "solvers/detail/variable_step_control.h"

namespace twinblocks::solvers {
namespace {

using internal::kEps;

// Step-size control of ode23 and ode45.
namespace rk_control {
constexpr double kSafety = 0.9;         // step-size safety factor
constexpr double kMinRatio = 0.2;       // smallest step ratio after an error test
constexpr double kMaxRatio = 10.0;      // largest step ratio after an accepted step
constexpr double kFailureRatio = 0.25;  // step ratio after a failed evaluation
constexpr long kDefaultMaxAttempts = 100;
}  // namespace rk_control

// Hairer's stiffness test: a step counts as bounded by stability past this fraction of the
// method's stability boundary (DOPRI5's 3.25 of 3.31); kStiffSteps of them, each fewer than
// kNonStiffSteps apart, make the verdict.
constexpr double kStiffFractionOfBoundary = 0.98;
constexpr int kStiffSteps = 15;
constexpr int kNonStiffSteps = 6;

// Coefficients of the DOPRI5 continuous extension (Hairer, Norsett & Wanner, Solving ODEs I,
// Sect. II.6, after Shampine 1986): the fourth-order dense output in Hairer's CONTD5 form.
constexpr double kD1 = -12715105075.0 / 11282082432.0;
constexpr double kD3 = 87487479700.0 / 32700410799.0;
constexpr double kD4 = -10690763975.0 / 1880347072.0;
constexpr double kD5 = 701980252875.0 / 199316789632.0;
constexpr double kD6 = -1453857185.0 / 822651844.0;
constexpr double kD7 = 69997945.0 / 29380423.0;

}  // namespace

EmbeddedRungeKuttaIntegrator::EmbeddedRungeKuttaIntegrator(std::string name, ButcherTableau tableau,
                                                           DenseOutput dense, double pi_beta,
                                                           OdeProblem* problem,
                                                           const IntegratorOptions& options)
    : Integrator(problem, options),
      name_(std::move(name)),
      tableau_(std::move(tableau)),
      dense_(dense),
      pi_beta_(pi_beta),
      nx_(problem->num_states()),
      ng_(options.locate_zero_crossings ? problem->num_zero_crossings() : 0),
      locator_(ng_) {
  tableau_.Validate();
  if (!tableau_.is_fsal() || tableau_.b_hat.size() != tableau_.num_stages()) {
    throw std::logic_error(name_ + ": needs an embedded pair with the FSAL property");
  }
  if (dense_ == DenseOutput::kDormandPrince && tableau_.num_stages() != 7) {
    throw std::logic_error(name_ + ": the DOPRI5 dense output needs the Dormand-Prince pair");
  }
  if (!(options.rtol >= 0.0) || !(options.atol >= 0.0) || options.rtol + options.atol <= 0.0) {
    throw std::invalid_argument(name_ + ": rtol and atol must be >= 0 and not both 0");
  }
  atol_ = internal::AbsoluteTolerances(name_, options, nx_);
  atol_scaling_ = internal::AbsoluteToleranceScaling(name_, options, nx_);
  e_ = tableau_.b - tableau_.b_hat;
  const int s = tableau_.num_stages();
  if (tableau_.c(s - 2) == tableau_.c(s - 1)) {
    stiff_step_ = kStiffFractionOfBoundary * tableau_.RealStabilityBoundary();
  }
  x_ = Eigen::VectorXd::Zero(nx_);
  k_ = Eigen::MatrixXd::Zero(nx_, s);
  x_stage_ = Eigen::VectorXd::Zero(nx_);
  x_new_ = Eigen::VectorXd::Zero(nx_);
  err_ = Eigen::VectorXd::Zero(nx_);
  dense_coeffs_ = Eigen::MatrixXd::Zero(nx_, 4);
  dense_saved_ = Eigen::MatrixXd::Zero(nx_, 4);
  dense_base_ = Eigen::VectorXd::Zero(nx_);
  x_interp_ = Eigen::VectorXd::Zero(nx_);
  g0_ = Eigen::VectorXd::Zero(ng_);
  g1_ = Eigen::VectorXd::Zero(ng_);
  g_probe_ = Eigen::VectorXd::Zero(ng_);
}

void EmbeddedRungeKuttaIntegrator::ThrowEvaluationFailure(const char* what, int flag,
                                                          double t) const {
  std::ostringstream os;
  os.precision(17);
  os << name_ << ": " << what << " failed (code " << flag << ") at t = " << t << " s";
  const char* message = problem_->last_error();
  if (message != nullptr && message[0] != '\0') os << ": " << message;
  throw SolverError(os.str(), t_);
}

int EmbeddedRungeKuttaIntegrator::EvalDerivatives(double t, const Eigen::VectorXd& x, int column) {
  ++stats_.rhs_evals;
  const int flag = problem_->CalcDerivatives(t, x, k_.col(column));
  if (flag < 0) ThrowEvaluationFailure("the derivative evaluation", flag, t);
  if (flag > 0) return flag;
  // A NaN or Inf derivative is treated as a recoverable failure: often the step was too long
  // and took a state out of the model's domain.
  const int bad = internal::FirstNonFinite(k_.col(column));
  if (bad >= 0) {
    last_nonfinite_ = bad;
    return 1;
  }
  return 0;
}

void EmbeddedRungeKuttaIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  EvaluateAtRestart(t, x);
  h_next_ = h_last_;
  err_old_ = 1e-4;
  ProbeZeroStartValues();
}

void EmbeddedRungeKuttaIntegrator::CorrectState(double t,
                                                const Eigen::Ref<const Eigen::VectorXd>& x) {
  EvaluateAtRestart(t, x);
  ProbeZeroStartValues();
}

void EmbeddedRungeKuttaIntegrator::EvaluateAtRestart(double t,
                                                     const Eigen::Ref<const Eigen::VectorXd>& x) {
  StartAt(t, x);
  atol_scaling_.Grow(x_, atol_);
  fsal_valid_ = false;
  dense_valid_ = false;
  // The right-hand side may have jumped: the FSAL derivative of the old step is stale.
  const int flag = EvalDerivatives(t_, x_, 0);
  if (flag != 0) {
    std::ostringstream os;
    os.precision(17);
    os << name_ << ": the derivative at the restart t = " << t << " s is not usable (code " << flag
       << ")";
    // Where: the problem's own words name the block and state; else the state's index.
    const char* message = problem_->last_error();
    if (message != nullptr && message[0] != '\0') {
      os << ": " << message;
    } else if (last_nonfinite_ >= 0) {
      os << ": the derivative of " << problem_->DescribeState(last_nonfinite_) << " is not finite";
    }
    throw SolverError(os.str(), t_);
  }
  fsal_valid_ = true;
  if (ng_ > 0) {
    ++stats_.zc_evals;
    const int zc_flag = problem_->CalcZeroCrossings(t_, x_, g0_);
    if (zc_flag != 0) ThrowEvaluationFailure("the zero-crossing evaluation", zc_flag, t_);
  }
}

void EmbeddedRungeKuttaIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter(memory) << (started_ ? 1.0 : 0.0) << (fsal_valid_ ? 1.0 : 0.0) << h_next_
                                 << h_last_ << err_old_ << t_step_ << h_step_ << t_step_end_
                                 << dense_t0_ << dense_h_ << (dense_valid_ ? 1.0 : 0.0) << k_
                                 << dense_base_ << dense_saved_ << g0_;
  if (atol_scaling_.on()) internal::MemoryWriter(memory) << atol_;
}

void EmbeddedRungeKuttaIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                                  std::span<const double> memory) {
  const size_t expected = 11 + k_.size() + dense_base_.size() + dense_saved_.size() + g0_.size() +
                          (atol_scaling_.on() ? atol_.size() : 0);
  internal::MemoryReader in(memory, expected, name_);
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  fsal_valid_ = in.Next() != 0.0;
  h_next_ = in.Next();
  h_last_ = in.Next();
  err_old_ = in.Next();
  t_step_ = in.Next();
  h_step_ = in.Next();
  t_step_end_ = in.Next();
  dense_t0_ = in.Next();
  dense_h_ = in.Next();
  dense_valid_ = in.Next() != 0.0;
  in.Into(&k_);
  in.Into(&dense_base_);
  in.Into(&dense_saved_);
  in.Into(&g0_);
  if (atol_scaling_.on()) in.Into(&atol_);
  locator_.ForgetLocated();
}

void EmbeddedRungeKuttaIntegrator::ProbeZeroStartValues() {
  const double delta = locator_.MarkProbed(g0_, t_, std::max(h_next_, h_last_));
  if (delta <= 0.0) return;
  if (!fsal_valid_) {
    if (EvalDerivatives(t_, x_, 0) != 0) return;
    fsal_valid_ = true;
  }
  x_stage_ = x_ + delta * k_.col(0);
  ++stats_.zc_evals;
  const int flag = problem_->CalcZeroCrossings(t_ + delta, x_stage_, g_probe_);
  if (flag != 0) ThrowEvaluationFailure("the zero-crossing evaluation", flag, t_ + delta);
  locator_.TakeProbedSigns(g_probe_, &g0_);
}

double EmbeddedRungeKuttaIntegrator::InitialStepSize(double t_stop, double h_max) {
  // Hairer's HINIT: a step whose explicit-Euler error is about 1% of the tolerance, refined
  // with a finite-difference estimate of the second derivative.
  const double rtol = options_.rtol;
  double dnf = 0.0;
  double dny = 0.0;
  for (int i = 0; i < nx_; ++i) {
    const double sk = atol_[i] + rtol * std::abs(x_[i]);
    dnf += (k_(i, 0) / sk) * (k_(i, 0) / sk);
    dny += (x_[i] / sk) * (x_[i] / sk);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : std::sqrt(dny / dnf) * 0.01;
  h = std::min({h, h_max, t_stop - t_});
  x_stage_ = x_ + h * k_.col(0);
  // Column 1 is scratch here: the step overwrites it.
  if (EvalDerivatives(t_ + h, x_stage_, 1) != 0) return h;
  double der2 = 0.0;
  for (int i = 0; i < nx_; ++i) {
    const double sk = atol_[i] + rtol * std::abs(x_[i]);
    const double d = (k_(i, 1) - k_(i, 0)) / sk;
    der2 += d * d;
  }
  der2 = std::sqrt(der2) / h;
  const double der12 = std::max(std::abs(der2), std::sqrt(dnf));
  const double h1 =
      der12 <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / der12, 1.0 / tableau_.order);
  return std::min({100.0 * h, h1, h_max});
}

StepResult EmbeddedRungeKuttaIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name_, started_, t_, t_stop);
  StepResult result;
  if (t_stop == t_) {
    result.t = t_;
    return result;
  }
  if (!fsal_valid_) {
    const int flag = EvalDerivatives(t_, x_, 0);
    if (flag != 0) ThrowEvaluationFailure("the derivative evaluation", flag, t_);
    fsal_valid_ = true;
  }
  const double h_max =
      options_.max_step > 0.0 ? options_.max_step : std::numeric_limits<double>::infinity();
  if (h_next_ <= 0.0) {
    h_next_ = options_.initial_step > 0.0 ? options_.initial_step : InitialStepSize(t_stop, h_max);
  }
  const long max_attempts =
      options_.max_steps > 0 ? options_.max_steps : rk_control::kDefaultMaxAttempts;
  const int s = tableau_.num_stages();
  const double expo1 = 1.0 / (tableau_.embedded_order + 1) - 0.75 * pi_beta_;

  double h = std::min(h_next_, h_max);
  bool rejected = false;
  last_nonfinite_ = -1;
  for (long attempt = 1;; ++attempt) {
    const internal::TrialStep trial(t_, t_stop, h, h_max);
    h = trial.h;
    const double t_new = trial.t_end;
    if (attempt > max_attempts) {
      std::ostringstream os;
      os.precision(17);
      os << name_ << ": " << max_attempts << " rejected step attempts at t = " << t_
         << " s (last step size " << h << " s)";
      throw SolverError(os.str(), t_);
    }

    // Stages 1..s-1; the last one is evaluated at the new state (FSAL).
    int flag = 0;
    for (int i = 1; i < s && flag == 0; ++i) {
      Eigen::VectorXd& xs = i == s - 1 ? x_new_ : x_stage_;
      xs = x_;
      for (int j = 0; j < i; ++j) {
        const double a = tableau_.a(i, j);
        if (a != 0.0) xs.noalias() += (h * a) * k_.col(j);
      }
      const double c = tableau_.c(i);
      flag = EvalDerivatives(c == 1.0 ? t_new : t_ + c * h, xs, i);
    }
    double err = std::numeric_limits<double>::infinity();
    if (flag == 0) {
      err_.setZero();
      for (int i = 0; i < s; ++i) {
        if (e_[i] != 0.0) err_.noalias() += (h * e_[i]) * k_.col(i);
      }
      err = internal::WeightedRmsNorm(err_, x_, x_new_, atol_, options_.rtol);
    }
    if (flag == 0 && err <= 1.0) {
      // Accepted. PI control of the next step (Hairer's DOPRI5 with Lund stabilization).
      const double fac11 = std::pow(err, expo1);
      double fac = fac11 / std::pow(err_old_, pi_beta_);
      fac = std::clamp(fac / rk_control::kSafety, 1.0 / rk_control::kMaxRatio,
                       1.0 / rk_control::kMinRatio);
      double h_new = h / fac;
      if (rejected) h_new = std::min(h_new, h);
      err_old_ = std::max(err, 1e-4);
      trial.Accepted(h_new, rejected, h_max, &h_next_, &h_last_);
      t_step_ = t_;
      h_step_ = h;
      t_step_end_ = t_new;
      break;
    }
    // Rejected: error test failed, or an evaluation failed or went non-finite.
    ++stats_.rejected_steps;
    rejected = true;
    if (flag == 0 && std::isfinite(err)) {
      const double fac11 = std::pow(err, expo1);
      h = h / std::min(1.0 / rk_control::kMinRatio, fac11 / rk_control::kSafety);
    } else {
      h *= rk_control::kFailureRatio;
    }
    const double h_min = std::max(options_.min_step, 16.0 * kEps * std::abs(t_));
    if (h < h_min) {
      std::ostringstream os;
      os.precision(17);
      os << name_ << ": step size underflow at t = " << t_ << " s (h = " << h << " s < " << h_min
         << " s)";
      if (last_nonfinite_ >= 0) {
        os << ": the derivative of " << problem_->DescribeState(last_nonfinite_)
           << " is NaN or Inf";
      } else if (flag > 0) {
        os << ": the derivative evaluation keeps failing (code " << flag << ")";
        const char* message = problem_->last_error();
        if (message != nullptr && message[0] != '\0') os << ": " << message;
      } else {
        os << ": the error test keeps failing";
        const int worst = internal::LargestWeightedError(err_, x_, x_new_, atol_, options_.rtol);
        if (worst >= 0) {
          os << ", most in " << problem_->DescribeState(worst)
             << " (the largest weighted error estimate)";
        }
      }
      throw SolverError(os.str(), t_);
    }
  }

  const double t_end = t_step_end_;
  const int bad = internal::FirstNonFinite(x_new_);
  if (bad < 0) TestStiffness(h);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name_, problem_->DescribeState(bad),
                                                      x_new_[bad], t_, t_end),
                      t_);
  }

  CaptureDenseOutput();
  double t_reached = t_end;
  bool fsal_ok = true;
  if (ng_ > 0) {
    ++stats_.zc_evals;
    const int zc_flag = problem_->CalcZeroCrossings(t_end, x_new_, g1_);
    if (zc_flag != 0) ThrowEvaluationFailure("the zero-crossing evaluation", zc_flag, t_end);
    if (internal::ZeroCrossingLocator::AnyChanged(g0_, g1_)) {
      t_reached = LocateZeroCrossing();
      result.zero_crossing = true;
      result.crossed = locator_.crossed();
      ++stats_.zero_crossings;
      if (t_reached != t_end) {
        Interpolate(t_reached, &x_interp_);
        x_new_.swap(x_interp_);
        fsal_ok = false;  // f at the crossing is computed when needed
      }
      g0_ = locator_.g_at_end();
    } else {
      g0_ = g1_;
    }
  }

  x_.swap(x_new_);
  t_ = t_reached;
  atol_scaling_.Grow(x_, atol_);
  if (fsal_ok) k_.col(0) = k_.col(s - 1);
  fsal_valid_ = fsal_ok;
  ++stats_.steps;
  if (result.zero_crossing) ProbeZeroStartValues();
  result.t = t_;
  return result;
}

void EmbeddedRungeKuttaIntegrator::TestStiffness(double h) {
  if (stiff_step_ <= 0.0 || !std::isnan(stats_.stiff_since)) return;
  // The last two stages, at the same time t + h: f(x_new) - f(x_stage) ~ J (x_new - x_stage).
  const int s = tableau_.num_stages();
  const double den = (x_new_ - x_stage_).squaredNorm();
  if (!(den > 0.0)) return;
  const double h_lambda = h * std::sqrt((k_.col(s - 1) - k_.col(s - 2)).squaredNorm() / den);
  if (h_lambda > stiff_step_) {
    nonstiff_steps_ = 0;
    if (++stiff_steps_ == kStiffSteps) stats_.stiff_since = t_step_end_;
  } else if (++nonstiff_steps_ == kNonStiffSteps) {
    stiff_steps_ = 0;
  }
}

void EmbeddedRungeKuttaIntegrator::CaptureDenseOutput() {
  dense_base_ = x_;
  dense_t0_ = t_step_;
  dense_h_ = h_step_;
  if (dense_ == DenseOutput::kDormandPrince) {
    PrepareDenseOutput();
    dense_saved_ = dense_coeffs_;
  } else {
    dense_saved_.col(0) = x_new_ - x_;
    dense_saved_.col(1) = k_.col(0);
    dense_saved_.col(2) = k_.col(tableau_.num_stages() - 1);
  }
  dense_valid_ = true;
}

void EmbeddedRungeKuttaIntegrator::Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) {
  if (!dense_valid_ || t == t_) {
    x = x_;
    return;
  }
  const double h = dense_h_;
  const double theta = (t - dense_t0_) / h;
  const double theta1 = 1.0 - theta;
  if (dense_ == DenseOutput::kDormandPrince) {
    const double c3 = theta * theta1;
    const double c4 = c3 * theta;
    const double c5 = c4 * theta1;
    x.noalias() = dense_base_ + theta * dense_saved_.col(0) + c3 * dense_saved_.col(1) +
                  c4 * dense_saved_.col(2) + c5 * dense_saved_.col(3);
  } else {
    const double cd = theta - theta * theta1 * (1.0 - 2.0 * theta);
    const double c0 = theta * theta1 * theta1 * h;
    const double c1 = -theta * theta * theta1 * h;
    x.noalias() = dense_base_ + cd * dense_saved_.col(0) + c0 * dense_saved_.col(1) +
                  c1 * dense_saved_.col(2);
  }
}

void EmbeddedRungeKuttaIntegrator::PrepareDenseOutput() {
  if (dense_ != DenseOutput::kDormandPrince) return;
  const double h = h_step_;
  // r2 = y1 - y0, r3 = h k1 - r2, r4 = r2 - h k7 - r3, r5 = h sum d_i k_i (CONTD5 form).
  dense_coeffs_.col(0) = x_new_ - x_;
  dense_coeffs_.col(1) = h * k_.col(0) - dense_coeffs_.col(0);
  dense_coeffs_.col(2) = dense_coeffs_.col(0) - h * k_.col(6) - dense_coeffs_.col(1);
  dense_coeffs_.col(3) = h * (kD1 * k_.col(0) + kD3 * k_.col(2) + kD4 * k_.col(3) +
                              kD5 * k_.col(4) + kD6 * k_.col(5) + kD7 * k_.col(6));
}

void EmbeddedRungeKuttaIntegrator::Interpolate(double t, Eigen::VectorXd* x) const {
  const double h = h_step_;
  const double theta = (t - t_step_) / h;
  const double theta1 = 1.0 - theta;
  if (dense_ == DenseOutput::kDormandPrince) {
    // y0 + th (r2 + th1 (r3 + th (r4 + th1 r5))), expanded to avoid temporaries.
    const double c3 = theta * theta1;
    const double c4 = c3 * theta;
    const double c5 = c4 * theta1;
    x->noalias() = x_ + theta * dense_coeffs_.col(0) + c3 * dense_coeffs_.col(1) +
                   c4 * dense_coeffs_.col(2) + c5 * dense_coeffs_.col(3);
  } else {
    // Cubic Hermite on (y0, h f0, y1, h f1).
    const int s = tableau_.num_stages();
    const double cd = theta - theta * theta1 * (1.0 - 2.0 * theta);
    const double c0 = theta * theta1 * theta1 * h;
    const double c1 = -theta * theta * theta1 * h;
    x->noalias() = x_ + cd * (x_new_ - x_) + c0 * k_.col(0) + c1 * k_.col(s - 1);
  }
}

double EmbeddedRungeKuttaIntegrator::LocateZeroCrossing() {
  PrepareDenseOutput();
  return locator_.Locate(t_step_, t_step_end_, h_step_, g0_, g1_,
                         [this](double t, Eigen::VectorXd& g) {
                           Interpolate(t, &x_interp_);
                           ++stats_.zc_evals;
                           const int flag = problem_->CalcZeroCrossings(t, x_interp_, g);
                           if (flag != 0) {
                             ThrowEvaluationFailure("the zero-crossing evaluation", flag, t);
                           }
                         });
}

}  // namespace twinblocks::solvers
