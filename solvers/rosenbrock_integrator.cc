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

namespace twinblocks::solvers {
namespace {

// A remaining distance to t_stop within this fraction of a step is closed by stretching the
// step instead of leaving a sliver (as the explicit fixed-step methods do).

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
    : Integrator(problem, options), method_(method), nx_(problem->num_states()) {
  if (!(options.fixed_step > 0.0) || !std::isfinite(options.fixed_step)) {
    throw std::invalid_argument(std::string(name()) +
                                ": fixed_step must be positive and finite, got " +
                                std::to_string(options.fixed_step));
  }
  x_ = Eigen::VectorXd::Zero(nx_);
  J_ = Eigen::MatrixXd::Zero(nx_, nx_);
  lu_ = Eigen::MatrixXd::Zero(nx_, nx_);
  active_.reserve(nx_);
  pivot_.assign(nx_, 0);
  rhs_ = Eigen::VectorXd::Zero(nx_);
  k1_ = Eigen::VectorXd::Zero(nx_);
  k2_ = Eigen::VectorXd::Zero(nx_);
  x_stage_ = Eigen::VectorXd::Zero(nx_);
  f_ = Eigen::VectorXd::Zero(nx_);
}

std::string_view RosenbrockIntegrator::name() const {
  return method_ == RosenbrockMethod::kRos2 ? "ros2" : "ode1be";
}

void RosenbrockIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  internal::CheckStateSize(name(), x.size(), nx_);
  if (started_) ++stats_.resets;
  started_ = true;
  t_ = t;
  x_ = x;
  grid_.Restart(t);
}

void RosenbrockIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0);
  grid_.Save(out);
}

void RosenbrockIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                          std::span<const double> memory) {
  internal::MemoryReader in(memory, 1 + internal::FixedStepGrid::kMemorySize, name());
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  grid_.Restore(in);
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
    throw SolverError(internal::NonFiniteStateMessage(name(), bad, out[bad], t_, t), t_);
  }
}

void RosenbrockIntegrator::FormJacobian(double t, const Eigen::VectorXd& f0) {
  ++stats_.jacobian_evals;
  if (problem_->has_jacobian()) {
    const int flag = problem_->CalcJacobian(t, x_, J_);
    if (flag != 0) {
      throw SolverError(std::string(name()) + ": the Jacobian evaluation failed (code " +
                            std::to_string(flag) + ") at t = " + TimeText(t) +
                            " s: " + problem_->last_error(),
                        t_);
    }
    return;
  }
  // Forward differences, each state moved by sqrt(eps) of its size (at least of 1).
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  x_stage_ = x_;
  for (int j = 0; j < nx_; ++j) {
    const double delta = root_eps * std::max(std::abs(x_[j]), 1.0);
    x_stage_[j] = x_[j] + delta;
    Evaluate(t, x_stage_, f_);
    J_.col(j) = (f_ - f0) / delta;
    x_stage_[j] = x_[j];
  }
}

void RosenbrockIntegrator::Factor(double gamma_h, double t) {
  // A state is active when its row or its column of J holds a nonzero; a nonzero lies in a
  // nonzero column, so only those are searched for rows (pivot_ marks the active states
  // before it holds the pivots).
  std::fill(pivot_.begin(), pivot_.end(), 0);
  for (int c = 0; c < nx_; ++c) {
    if (!(J_.col(c).array() != 0.0).any()) continue;
    pivot_[c] = 1;
    for (int r = 0; r < nx_; ++r) {
      if (J_(r, c) != 0.0) pivot_[r] = 1;
    }
  }
  active_.clear();
  for (int i = 0; i < nx_; ++i) {
    if (pivot_[i] != 0) active_.push_back(i);
  }
  const int m = static_cast<int>(active_.size());
  for (int c = 0; c < m; ++c) {
    for (int r = 0; r < m; ++r) {
      lu_(r, c) = (r == c ? 1.0 : 0.0) - gamma_h * J_(active_[r], active_[c]);
    }
  }
  // LU with partial pivoting of the m x m block, in place (Golub & Van Loan, Alg. 3.4.1).
  for (int k = 0; k < m; ++k) {
    int p = k;
    for (int r = k + 1; r < m; ++r) {
      if (std::abs(lu_(r, k)) > std::abs(lu_(p, k))) p = r;
    }
    pivot_[k] = p;
    if (!(std::abs(lu_(p, k)) > 0.0) || !std::isfinite(lu_(p, k))) {
      throw SolverError(std::string(name()) + ": I - gamma h J is singular at t = " + TimeText(t) +
                            " s (the Jacobian has an eigenvalue near 1/(gamma h))",
                        t_);
    }
    if (p != k) {
      for (int c = 0; c < m; ++c) std::swap(lu_(k, c), lu_(p, c));
    }
    const double inv = 1.0 / lu_(k, k);
    for (int r = k + 1; r < m; ++r) {
      const double l = lu_(r, k) * inv;
      lu_(r, k) = l;
      if (l == 0.0) continue;
      for (int c = k + 1; c < m; ++c) lu_(r, c) -= l * lu_(k, c);
    }
  }
}

void RosenbrockIntegrator::Solve(Eigen::Ref<Eigen::VectorXd> b) {
  const int m = static_cast<int>(active_.size());
  if (m == 0) return;
  double* y = rhs_.data();
  for (int r = 0; r < m; ++r) y[r] = b[active_[r]];
  for (int k = 0; k < m; ++k) {
    if (pivot_[k] != k) std::swap(y[k], y[pivot_[k]]);
  }
  for (int r = 1; r < m; ++r) {
    double s = y[r];
    for (int c = 0; c < r; ++c) s -= lu_(r, c) * y[c];
    y[r] = s;
  }
  for (int r = m - 1; r >= 0; --r) {
    double s = y[r];
    for (int c = r + 1; c < m; ++c) s -= lu_(r, c) * y[c];
    y[r] = s / lu_(r, r);
  }
  for (int r = 0; r < m; ++r) b[active_[r]] = y[r];
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
    FormJacobian(t_new, k1_);
    Factor(h, t_new);
    Solve(k1_);
    x_stage_ = x_ + h * k1_;
  } else {
    Evaluate(t_, x_, k1_);
    FormJacobian(t_, k1_);
    const double gamma_h = kRos2Gamma * h;
    Factor(gamma_h, t_);
    Solve(k1_);
    x_stage_ = x_ + h * k1_;
    Evaluate(t_new, x_stage_, k2_);
    k2_ -= 2.0 * k1_;
    Solve(k2_);
    x_stage_ = x_ + (1.5 * h) * k1_ + (0.5 * h) * k2_;
  }
  const int bad = internal::FirstNonFinite(x_stage_);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name(), bad, x_stage_[bad], t_, t_new), t_);
  }
  x_.swap(x_stage_);
  t_ = t_new;
  grid_.Taken(step);
  ++stats_.steps;
  result.t = t_;
  return result;
}

}  // namespace twinblocks::solvers
