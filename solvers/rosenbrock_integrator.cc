#include "solvers/rosenbrock_integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "solvers/detail/step_helpers.h"
#include "solvers/solver_table.h"

namespace twinblocks::solvers {
namespace {

// ROS2's gamma = 1 + 1/sqrt(2): the root of gamma^2 - 2 gamma + 1/2 = 0 that makes the
// method L-stable.
constexpr double kRos2Gamma = 1.0 + 1.0 / std::numbers::sqrt2;

std::string TimeText(double t) {
  std::ostringstream os;
  os.precision(17);
  os << t;
  return os.str();
}

}  // namespace

RosenbrockIntegrator::RosenbrockIntegrator(RosenbrockMethod method, OdeProblem* problem,
                                           const IntegratorOptions& options)
    : Integrator(problem, options),
      method_(method),
      nx_(problem->num_states()),
      uses_dfdt_(method == RosenbrockMethod::kRos2 && !problem->is_autonomous()),
      W_(*problem, options.jacobian_method),
      crossings_(nx_, options.fixed_step_zero_crossings ? problem->num_zero_crossings() : 0) {
  if (!(options.fixed_step > 0.0) || !std::isfinite(options.fixed_step)) {
    throw std::invalid_argument(std::string(name()) +
                                ": fixed_step must be positive and finite, got " +
                                std::to_string(options.fixed_step));
  }
  jacobian_steps_ = options.jacobian_steps.value_or(1);
  if (jacobian_steps_ < 1) {
    throw std::invalid_argument(std::string(name()) + ": jacobian_steps must be >= 1, got " +
                                std::to_string(jacobian_steps_));
  }
  x_ = Eigen::VectorXd::Zero(nx_);
  k1_ = Eigen::VectorXd::Zero(nx_);
  k2_ = Eigen::VectorXd::Zero(nx_);
  x_stage_ = Eigen::VectorXd::Zero(nx_);
}

std::string_view RosenbrockIntegrator::name() const {
  return method_ == RosenbrockMethod::kRos2 ? solver_names::kRos2 : solver_names::kOde1be;
}

void RosenbrockIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  StartAt(t, x);
  grid_.Restart(t);
  crossings_.Start(problem_, name(), t_, x_, options_.fixed_step, &stats_);
}

void RosenbrockIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0);
  grid_.Save(out);
  crossings_.Save(out);
  W_.SaveMemory(out);
  // A J that serves more steps is part of what the next steps compute.
  if (jacobian_steps_ > 1) W_.SaveKeptJacobian(out, jacobian_age_, factored_gamma_h_);
}

void RosenbrockIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                          std::span<const double> memory) {
  const size_t kept_jacobian =
      jacobian_steps_ > 1 ? internal::IterationMatrix::kept_jacobian_memory_size(nx_) : 0;
  internal::MemoryReader in(memory,
                            1 + internal::FixedStepGrid::kMemorySize + crossings_.memory_size() +
                                internal::IterationMatrix::memory_size(nx_) + kept_jacobian,
                            name());
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  grid_.Restore(in);
  crossings_.Restore(in);
  W_.RestoreMemory(in);
  jacobian_age_ = -1;
  factored_gamma_h_ = 0.0;
  if (jacobian_steps_ > 1) W_.RestoreKeptJacobian(in, &jacobian_age_, &factored_gamma_h_);
}

void RosenbrockIntegrator::Evaluate(double t, const Eigen::VectorXd& x,
                                    Eigen::Ref<Eigen::VectorXd> out) {
  ++stats_.rhs_evals;
  const int flag = problem_->CalcDerivatives(t, x, out);
  if (flag != 0) {
    throw SolverError(std::string(name()) + ": the derivative evaluation failed (code " +
                          std::to_string(flag) + ") at t = " + TimeText(t) +
                          " s: " + problem_->last_error(),
                      t_);
  }
  // A non-finite derivative would reach the state through the linear solves; name it here,
  // before it makes the iteration matrix look singular.
  const int bad = internal::FirstNonFinite(out);
  if (bad >= 0) {
    throw SolverError(
        internal::NonFiniteStateMessage(name(), problem_->DescribeState(bad), out[bad], t_, t), t_);
  }
}

void RosenbrockIntegrator::PrepareW(double t, const Eigen::VectorXd& f0, double gamma_h) {
  const bool kept = jacobian_age_ >= 0 && jacobian_age_ < jacobian_steps_;
  if (!kept) FormJacobian(t, f0);
  // Factors of an older step serve while gamma h is the same to round-off (every step but
  // the short ones that land on a stop).
  if (std::abs(gamma_h - factored_gamma_h_) <= 1e-12 * factored_gamma_h_) return;
  factored_gamma_h_ = 0.0;
  if (!W_.Factor(gamma_h)) {
    // A kept J may have gone stale (a contact closed since): try the current one first.
    if (kept && W_.nonfinite_state() < 0) {
      FormJacobian(t, f0);
      if (W_.Factor(gamma_h)) {
        factored_gamma_h_ = gamma_h;
        return;
      }
    }
    if (W_.nonfinite_state() >= 0) {
      throw SolverError(std::string(name()) + ": the Jacobian of " +
                            problem_->DescribeState(W_.nonfinite_state()) +
                            " is NaN or infinite at t = " + TimeText(t) + " s",
                        t_);
    }
    throw SolverError(std::string(name()) + ": I - gamma h J is singular at t = " + TimeText(t) +
                          " s (the Jacobian has an eigenvalue near 1/(gamma h))",
                      t_);
  }
  factored_gamma_h_ = gamma_h;
}

void RosenbrockIntegrator::FormJacobian(double t, const Eigen::VectorXd& f0) {
  ++stats_.jacobian_evals;
  const int flag =
      W_.Form(problem_, t, x_, f0,
              [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { Evaluate(t, x, out); });
  if (flag != 0) {
    throw SolverError(std::string(name()) + ": the Jacobian evaluation failed (code " +
                          std::to_string(flag) + ") at t = " + TimeText(t) +
                          " s: " + problem_->last_error(),
                      t_);
  }
  if (uses_dfdt_) {
    stats_.rhs_evals += W_.FormTimeDerivative(problem_, t, x_, f0, options_.fixed_step);
  }
  jacobian_age_ = 0;
  factored_gamma_h_ = 0.0;
}

StepResult RosenbrockIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name(), started_, t_, t_stop);
  StepResult result;
  if (t_stop == t_) {
    result.t = t_;
    return result;
  }
  const internal::FixedStepGrid::Step step = grid_.Plan(t_, t_stop, options_.fixed_step);
  const double h = step.h;
  const double t_new = step.t_new;

  if (method_ == RosenbrockMethod::kLinearlyImplicitEuler) {
    // One Newton iteration of x1 = x0 + h f(t1, x1) from x1 = x0.
    Evaluate(t_new, x_, k1_);
    PrepareW(t_new, k1_, h);
    W_.Solve(k1_);
    x_stage_ = x_ + h * k1_;
  } else {
    Evaluate(t_, x_, k1_);
    PrepareW(t_, k1_, kRos2Gamma * h);
    if (uses_dfdt_) k1_ += (kRos2Gamma * h) * W_.time_derivative();
    W_.Solve(k1_);
    x_stage_ = x_ + h * k1_;
    Evaluate(t_new, x_stage_, k2_);
    k2_ -= 2.0 * k1_;
    if (uses_dfdt_) k2_ -= (kRos2Gamma * h) * W_.time_derivative();
    W_.Solve(k2_);
    x_stage_ = x_ + (1.5 * h) * k1_ + (0.5 * h) * k2_;
  }
  const int bad = internal::FirstNonFinite(x_stage_);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name(), problem_->DescribeState(bad),
                                                      x_stage_[bad], t_, t_new),
                      t_);
  }
  double t_reached = t_new;
  // f at the step's start is not kept (ode1be evaluates at its end, ros2 solves in place).
  result.zero_crossing = crossings_.EndStep(problem_, name(), t_, x_, nullptr, step, &grid_,
                                            &t_reached, &x_stage_, &stats_);
  if (result.zero_crossing) result.crossed = crossings_.crossed();
  x_.swap(x_stage_);
  t_ = t_reached;
  ++jacobian_age_;
  ++stats_.steps;
  result.t = t_;
  return result;
}

}  // namespace twinblocks::solvers
