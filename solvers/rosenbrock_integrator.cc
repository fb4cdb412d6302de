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

}  // namespace

RosenbrockIntegrator::RosenbrockIntegrator(RosenbrockMethod method, OdeProblem* problem,
                                           const IntegratorOptions& options)
    : FixedStepImplicitIntegrator(
          method == RosenbrockMethod::kRos2 ? solver_names::kRos2 : solver_names::kOde1be, problem,
          options, method == RosenbrockMethod::kRos2 && !problem->is_autonomous()),
      method_(method),
      uses_dfdt_(method == RosenbrockMethod::kRos2 && !problem->is_autonomous()) {
  k1_ = Eigen::VectorXd::Zero(nx_);
  k2_ = Eigen::VectorXd::Zero(nx_);
  x_stage_ = Eigen::VectorXd::Zero(nx_);
}

std::string_view RosenbrockIntegrator::name() const {
  return method_ == RosenbrockMethod::kRos2 ? solver_names::kRos2 : solver_names::kOde1be;
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
    jac_.Evaluate(t_new, x_, k1_, t_, &stats_);
    jac_.Prepare(t_new, x_, k1_, h, t_, &stats_);
    jac_.Solve(k1_);
    x_stage_ = x_ + h * k1_;
  } else {
    jac_.Evaluate(t_, x_, k1_, t_, &stats_);
    jac_.Prepare(t_, x_, k1_, kRos2Gamma * h, t_, &stats_);
    if (uses_dfdt_) k1_ += (kRos2Gamma * h) * jac_.time_derivative();
    jac_.Solve(k1_);
    x_stage_ = x_ + h * k1_;
    jac_.Evaluate(t_new, x_stage_, k2_, t_, &stats_);
    k2_ -= 2.0 * k1_;
    if (uses_dfdt_) k2_ -= (kRos2Gamma * h) * jac_.time_derivative();
    jac_.Solve(k2_);
    x_stage_ = x_ + (1.5 * h) * k1_ + (0.5 * h) * k2_;
  }
  const int bad = internal::FirstNonFinite(x_stage_);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name(), problem_->DescribeState(bad),
                                                      x_stage_[bad], t_, t_new),
                      t_);
  }
  // f at the step's start is not kept (ode1be evaluates at its end, ros2 solves in place).
  return FinishStep(step, nullptr, &x_stage_);
}

}  // namespace twinblocks::solvers
