#include "solvers/modified_rosenbrock_integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "solvers/detail/step_helpers.h"
#include "solvers/detail/variable_step_control.h"

namespace twinblocks::solvers {
namespace {

using internal::kEps;

// Shampine and Reichelt's constants: d makes the second-order formula L-stable.
constexpr double kD = 1.0 / (2.0 + std::numbers::sqrt2);
constexpr double kE32 = 6.0 + std::numbers::sqrt2;

// Step-size control of ode23s.
namespace ode23s_control {
constexpr double kSafety = 0.8;         // of the step the error estimate predicts
constexpr double kMaxRatio = 5.0;       // largest growth after an accepted step
constexpr double kMinRatio = 0.5;       // largest cut after a failed error test
constexpr double kFailureRatio = 0.25;  // cut after a failed evaluation or a singular W
constexpr long kDefaultMaxAttempts = 100;
}  // namespace ode23s_control

}  // namespace

ModifiedRosenbrockIntegrator::ModifiedRosenbrockIntegrator(OdeProblem* problem,
                                                           const IntegratorOptions& options)
    : Integrator(problem, options),
      nx_(problem->num_states()),
      ng_(options.locate_zero_crossings ? problem->num_zero_crossings() : 0),
      uses_dfdt_(!problem->is_autonomous()),
      W_(*problem, options.jacobian_method),
      locator_(ng_) {
  if (!(options.rtol >= 0.0) || !(options.atol >= 0.0) || options.rtol + options.atol <= 0.0) {
    throw std::invalid_argument("ode23s: rtol and atol must be >= 0 and not both 0");
  }
  atol_ = internal::AbsoluteTolerances(name(), options, nx_);
  atol_scaling_ = internal::AbsoluteToleranceScaling(name(), options, nx_);
  jacobian_steps_ = options.jacobian_steps.value_or(1);
  if (jacobian_steps_ < 1) {
    throw std::invalid_argument("ode23s: jacobian_steps must be >= 1, got " +
                                std::to_string(jacobian_steps_));
  }
  for (Eigen::VectorXd* v : {&x_, &F0_, &F1_, &F2_, &k1_, &k2_, &k3_, &x_stage_, &x_new_, &err_,
                             &x_interp_, &dense_x0_}) {
    *v = Eigen::VectorXd::Zero(nx_);
  }
  dense_c_ = Eigen::MatrixXd::Zero(nx_, 3);
  for (Eigen::VectorXd* v : {&g0_, &g1_, &g_probe_}) *v = Eigen::VectorXd::Zero(ng_);
}

void ModifiedRosenbrockIntegrator::ThrowFailure(const std::string& what, double t) const {
  std::ostringstream os;
  os.precision(17);
  os << "ode23s: " << what << " at t = " << t << " s";
  const char* message = problem_->last_error();
  if (message != nullptr && message[0] != '\0') os << ": " << message;
  throw SolverError(os.str(), t_);
}

int ModifiedRosenbrockIntegrator::Evaluate(double t, const Eigen::VectorXd& x,
                                           Eigen::Ref<Eigen::VectorXd> out) {
  ++stats_.rhs_evals;
  const int flag = problem_->CalcDerivatives(t, x, out);
  if (flag < 0) {
    ThrowFailure("the derivative evaluation failed (code " + std::to_string(flag) + ")", t);
  }
  if (flag > 0) return flag;
  // A NaN or Inf derivative is recoverable: often the step was too long.
  const int bad = internal::FirstNonFinite(out);
  if (bad < 0) return 0;
  last_nonfinite_ = bad;
  return 1;
}

void ModifiedRosenbrockIntegrator::EvaluateAtStart() {
  const int flag = Evaluate(t_, x_, F0_);
  if (flag != 0) {
    const int bad = internal::FirstNonFinite(F0_);
    if (bad >= 0) {
      ThrowFailure("the derivative of state " + std::to_string(bad) + " is not finite", t_);
    }
    ThrowFailure("the derivative evaluation failed (code " + std::to_string(flag) + ")", t_);
  }
  f_current_ = true;
}

void ModifiedRosenbrockIntegrator::EvaluateZeroCrossings(double t, const Eigen::VectorXd& x,
                                                         Eigen::VectorXd& g) {
  ++stats_.zc_evals;
  const int flag = problem_->CalcZeroCrossings(t, x, g);
  if (flag != 0) {
    ThrowFailure("the zero-crossing evaluation failed (code " + std::to_string(flag) + ")", t);
  }
}

void ModifiedRosenbrockIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  EvaluateAtRestart(t, x);
  h_next_ = h_last_;
  ProbeZeroStartValues();
}

void ModifiedRosenbrockIntegrator::CorrectState(double t,
                                                const Eigen::Ref<const Eigen::VectorXd>& x) {
  EvaluateAtRestart(t, x);
  ProbeZeroStartValues();
}

void ModifiedRosenbrockIntegrator::EvaluateAtRestart(double t,
                                                     const Eigen::Ref<const Eigen::VectorXd>& x) {
  StartAt(t, x);
  atol_scaling_.Grow(x_, atol_);
  dense_valid_ = false;
  // g before f: a diagram serves both from the outputs of the major step just taken, and its
  // derivatives last (they overwrite what the outputs left).
  if (ng_ > 0) EvaluateZeroCrossings(t_, x_, g0_);
  EvaluateAtStart();
}

void ModifiedRosenbrockIntegrator::ProbeZeroStartValues() {
  const double delta = locator_.MarkProbed(g0_, t_, std::max(h_next_, h_last_));
  if (delta <= 0.0) return;
  if (!f_current_) EvaluateAtStart();
  x_stage_ = x_ + delta * F0_;
  EvaluateZeroCrossings(t_ + delta, x_stage_, g_probe_);
  f_current_ = false;  // the problem's last evaluation is no longer at (t_, x_)
  locator_.TakeProbedSigns(g_probe_, &g0_);
}

void ModifiedRosenbrockIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0) << h_next_ << h_last_ << dense_t0_ << dense_h_
      << (dense_valid_ ? 1.0 : 0.0) << dense_x0_ << dense_c_ << g0_;
  W_.SaveMemory(out);
  // A J that serves more steps is part of what the next steps compute.
  if (jacobian_steps_ > 1) W_.SaveKeptJacobian(out, jacobian_age_, factored_gamma_h_);
  if (atol_scaling_.on()) out << atol_;
}

void ModifiedRosenbrockIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                                  std::span<const double> memory) {
  const size_t reused_jacobian =
      jacobian_steps_ > 1 ? internal::IterationMatrix::kept_jacobian_memory_size(nx_) : 0;
  const size_t expected = 6 + 4 * static_cast<size_t>(nx_) + static_cast<size_t>(ng_) +
                          internal::IterationMatrix::memory_size(nx_) + reused_jacobian +
                          (atol_scaling_.on() ? static_cast<size_t>(nx_) : 0);
  internal::MemoryReader in(memory, expected, name());
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  h_next_ = in.Next();
  h_last_ = in.Next();
  dense_t0_ = in.Next();
  dense_h_ = in.Next();
  dense_valid_ = in.Next() != 0.0;
  in.Into(&dense_x0_);
  in.Into(&dense_c_);
  in.Into(&g0_);
  locator_.ForgetLocated();
  W_.RestoreMemory(in);
  jacobian_age_ = -1;
  factored_gamma_h_ = 0.0;
  if (jacobian_steps_ > 1) W_.RestoreKeptJacobian(in, &jacobian_age_, &factored_gamma_h_);
  if (atol_scaling_.on()) in.Into(&atol_);
  // f at t is evaluated anew (to the same value): the Jacobian needs it as the problem's last
  // evaluation.
  f_current_ = false;
}

double ModifiedRosenbrockIntegrator::InitialStepSize(double t_stop, double h_max) const {
  // MATLAB's ode23s start: the step over which f changes x by about rtol^(1/3) of its size,
  // the size counted at least atol / rtol.
  double rate = 0.0;
  for (int i = 0; i < nx_; ++i) {
    const double floor = options_.rtol > 0.0 ? atol_[i] / options_.rtol : atol_[i];
    const double scale = std::max(std::abs(x_[i]), std::max(floor, 1e-300));
    rate = std::max(rate, std::abs(F0_[i]) / scale);
  }
  double h = std::min(h_max, t_stop - t_);
  const double limit = ode23s_control::kSafety * std::cbrt(std::max(options_.rtol, 1e-12));
  if (h * rate > limit) h = limit / rate;
  return h;
}

StepResult ModifiedRosenbrockIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name(), started_, t_, t_stop);
  StepResult result;
  if (t_stop == t_) {
    result.t = t_;
    return result;
  }
  if (!f_current_) EvaluateAtStart();
  if (jacobian_age_ < 0 || jacobian_age_ >= jacobian_steps_) FormJacobian();

  const double h_max =
      options_.max_step > 0.0 ? options_.max_step : std::numeric_limits<double>::infinity();
  if (h_next_ <= 0.0) {
    h_next_ = options_.initial_step > 0.0 ? options_.initial_step : InitialStepSize(t_stop, h_max);
  }
  const long max_attempts =
      options_.max_steps > 0 ? options_.max_steps : ode23s_control::kDefaultMaxAttempts;
  double h = std::min(h_next_, h_max);
  bool rejected = false;
  double t_end = t_;
  last_nonfinite_ = -1;
  for (long attempt = 1;; ++attempt) {
    const internal::TrialStep trial(t_, t_stop, h, h_max);
    h = trial.h;
    t_end = trial.t_end;
    if (attempt > max_attempts) {
      std::ostringstream os;
      os << max_attempts << " rejected step attempts (last step size " << h << " s)";
      ThrowFailure(os.str(), t_);
    }

    // Factors of an older step serve while gamma h is the same to round-off: they are those
    // of J scaled by less than 1e-12, which a W-method allows.
    int flag = 0;
    if (!(std::abs(kD * h - factored_gamma_h_) <= 1e-12 * factored_gamma_h_)) {
      factored_gamma_h_ = 0.0;
      flag = W_.Factor(kD * h) ? 0 : 1;
      if (flag == 0) factored_gamma_h_ = kD * h;
      // A J that is not finite stays so at any step size.
      if (W_.nonfinite_state() >= 0) {
        ThrowFailure("the Jacobian of " + problem_->DescribeState(W_.nonfinite_state()) +
                         " is NaN or infinite",
                     t_);
      }
    }
    double err = std::numeric_limits<double>::infinity();
    if (flag == 0) {
      k1_ = F0_;
      if (uses_dfdt_) k1_ += (kD * h) * W_.time_derivative();
      W_.Solve(k1_);
      x_stage_ = x_ + (0.5 * h) * k1_;
      flag = Evaluate(t_ + 0.5 * h, x_stage_, F1_);
    }
    if (flag == 0) {
      k2_ = F1_ - k1_;
      W_.Solve(k2_);
      k2_ += k1_;
      x_new_ = x_ + h * k2_;
      flag = Evaluate(t_end, x_new_, F2_);
    }
    if (flag == 0) {
      k3_ = F2_ - kE32 * (k2_ - F1_) - 2.0 * (k1_ - F0_);
      if (uses_dfdt_) k3_ += (kD * h) * W_.time_derivative();
      W_.Solve(k3_);
      err_ = (h / 6.0) * (k1_ - 2.0 * k2_ + k3_);
      err = internal::WeightedRmsNorm(err_, x_, x_new_, atol_, options_.rtol);
    }
    if (flag == 0 && err <= 1.0) {
      double h_new = err > 0.0 ? h * std::min(ode23s_control::kMaxRatio,
                                              ode23s_control::kSafety * std::pow(err, -1.0 / 3.0))
                               : ode23s_control::kMaxRatio * h;
      if (rejected) h_new = std::min(h_new, h);
      trial.Accepted(h_new, rejected, h_max, &h_next_, &h_last_);
      t_step_ = t_;
      h_step_ = h;
      break;
    }
    ++stats_.rejected_steps;
    rejected = true;
    if (jacobian_age_ > 0) {
      // The retry gets a J of this point: the old one may be why the step failed.
      EvaluateAtStart();
      FormJacobian();
    }
    if (flag == 0 && std::isfinite(err)) {
      h *= std::max(ode23s_control::kMinRatio, ode23s_control::kSafety * std::pow(err, -1.0 / 3.0));
    } else {
      h *= ode23s_control::kFailureRatio;
    }
    const double h_min = std::max(options_.min_step, 16.0 * kEps * std::abs(t_));
    if (h < h_min) {
      std::ostringstream os;
      os.precision(17);
      os << "step size underflow (h = " << h << " s < " << h_min << " s): ";
      if (flag == 0) {
        os << "the error test keeps failing";
        const int worst = internal::LargestWeightedError(err_, x_, x_new_, atol_, options_.rtol);
        if (worst >= 0) {
          os << ", most in " << problem_->DescribeState(worst)
             << " (the largest weighted error estimate)";
        }
      } else if (last_nonfinite_ >= 0) {
        os << "the derivative of " << problem_->DescribeState(last_nonfinite_) << " is NaN or Inf";
      } else {
        os << "the derivative evaluation keeps failing or I - h d J is singular";
      }
      ThrowFailure(os.str(), t_);
    }
  }

  const int bad = internal::FirstNonFinite(x_new_);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name(), problem_->DescribeState(bad),
                                                      x_new_[bad], t_, t_end),
                      t_);
  }
  CaptureDenseOutput();
  double t_reached = t_end;
  bool at_end = true;
  if (ng_ > 0) {
    EvaluateZeroCrossings(t_end, x_new_, g1_);
    if (internal::ZeroCrossingLocator::AnyChanged(g0_, g1_)) {
      t_reached =
          locator_.Locate(t_step_, t_end, h_step_, g0_, g1_, [this](double t, Eigen::VectorXd& g) {
            Interpolate(t, x_interp_);
            EvaluateZeroCrossings(t, x_interp_, g);
          });
      result.zero_crossing = true;
      result.crossed = locator_.crossed();
      ++stats_.zero_crossings;
      if (t_reached != t_end) {
        Interpolate(t_reached, x_interp_);
        x_new_.swap(x_interp_);
        at_end = false;
      }
      g0_ = locator_.g_at_end();
    } else {
      g0_ = g1_;
    }
  }
  x_.swap(x_new_);
  t_ = t_reached;
  atol_scaling_.Grow(x_, atol_);
  ++jacobian_age_;
  if (result.zero_crossing) jacobian_age_ = -1;
  // At the step's end f is F2, and the last evaluations (f, then g) were there.
  if (at_end) F0_ = F2_;
  f_current_ = at_end;
  ++stats_.steps;
  if (result.zero_crossing) ProbeZeroStartValues();
  result.t = t_;
  return result;
}

void ModifiedRosenbrockIntegrator::FormJacobian() {
  ++stats_.jacobian_evals;
  const int jac_flag =
      W_.Form(problem_, t_, x_, F0_, [this](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
        if (Evaluate(t_, x, out) != 0)
          ThrowFailure("a difference quotient's evaluation failed", t_);
      });
  if (jac_flag != 0) {
    ThrowFailure("the Jacobian evaluation failed (code " + std::to_string(jac_flag) + ")", t_);
  }
  if (uses_dfdt_) {
    // h: the step to come (the last one, or 1 s before any).
    const double h = h_next_ > 0.0 ? h_next_ : (h_last_ > 0.0 ? h_last_ : 1.0);
    stats_.rhs_evals += W_.FormTimeDerivative(problem_, t_, x_, F0_, h);
  }
  f_current_ = false;
  jacobian_age_ = 0;
  factored_gamma_h_ = 0.0;
}

void ModifiedRosenbrockIntegrator::CaptureDenseOutput() {
  const double h = h_step_;
  const double w = 1.0 / (1.0 - 2.0 * kD);
  for (int i = 0; i < nx_; ++i) {
    if (W_.active(i)) {
      // h (s (1 - s) k1 + s (s - 2 d) k2) / (1 - 2 d), by powers of s.
      dense_c_(i, 0) = h * w * (k1_[i] - 2.0 * kD * k2_[i]);
      dense_c_(i, 1) = h * w * (k2_[i] - k1_[i]);
      dense_c_(i, 2) = 0.0;
    } else {
      // Cubic Hermite on (x, h F0) at s = 0 and (x_new, h F2) at s = 1.
      const double delta = x_new_[i] - x_[i];
      const double d0 = h * F0_[i];
      const double d1 = h * F2_[i];
      dense_c_(i, 0) = d0;
      dense_c_(i, 1) = 3.0 * delta - 2.0 * d0 - d1;
      dense_c_(i, 2) = d0 + d1 - 2.0 * delta;
    }
  }
  dense_x0_ = x_;
  dense_t0_ = t_step_;
  dense_h_ = h;
  dense_valid_ = true;
}

void ModifiedRosenbrockIntegrator::Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) {
  if (!dense_valid_ || t == t_) {
    x = x_;
    return;
  }
  const double s = (t - dense_t0_) / dense_h_;
  x.noalias() = dense_x0_ + s * (dense_c_.col(0) + s * (dense_c_.col(1) + s * dense_c_.col(2)));
}

}  // namespace twinblocks::solvers
