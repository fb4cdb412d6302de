#include "solvers/explicit_runge_kutta_integrator.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers {
namespace {

// A remaining distance to t_stop within this fraction of a step is closed by stretching the
// step instead of leaving a sliver.

}  // namespace

ExplicitRungeKuttaIntegrator::ExplicitRungeKuttaIntegrator(std::string name, ButcherTableau tableau,
                                                           OdeProblem* problem,
                                                           const IntegratorOptions& options)
    : Integrator(problem, options),
      name_(std::move(name)),
      tableau_(std::move(tableau)),
      nx_(problem->num_states()) {
  tableau_.Validate();
  if (!(options.fixed_step > 0.0) || !std::isfinite(options.fixed_step)) {
    throw std::invalid_argument(name_ + ": fixed_step must be positive and finite, got " +
                                std::to_string(options.fixed_step));
  }
  x_ = Eigen::VectorXd::Zero(nx_);
  k_ = Eigen::MatrixXd::Zero(nx_, tableau_.num_stages());
  x_stage_ = Eigen::VectorXd::Zero(nx_);
  x_new_ = Eigen::VectorXd::Zero(nx_);
}

void ExplicitRungeKuttaIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  StartAt(t, x);
  grid_.Restart(t);
}

void ExplicitRungeKuttaIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0);
  grid_.Save(out);
}

void ExplicitRungeKuttaIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                                  std::span<const double> memory) {
  internal::MemoryReader in(memory, 1 + internal::FixedStepGrid::kMemorySize, name_);
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  grid_.Restore(in);
}

StepResult ExplicitRungeKuttaIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name_, started_, t_, t_stop);
  StepResult result;
  if (t_stop == t_) {
    result.t = t_;
    return result;
  }
  const internal::FixedStepGrid::Step step = grid_.Plan(t_, t_stop, options_.fixed_step);
  const double h = step.h;
  const double t_new = step.t_new;

  const int s = tableau_.num_stages();
  for (int i = 0; i < s; ++i) {
    x_stage_ = x_;
    for (int j = 0; j < i; ++j) {
      const double a = tableau_.a(i, j);
      if (a != 0.0) x_stage_.noalias() += (h * a) * k_.col(j);
    }
    const double c = tableau_.c(i);
    const double t_stage = c == 1.0 ? t_new : t_ + c * h;
    ++stats_.rhs_evals;
    const int flag = problem_->CalcDerivatives(t_stage, x_stage_, k_.col(i));
    if (flag != 0) {
      std::ostringstream os;
      os.precision(17);
      os << name_ << ": the derivative evaluation failed (code " << flag << ") at t = " << t_stage
         << " s: " << problem_->last_error();
      throw SolverError(os.str(), t_);
    }
  }
  x_new_ = x_;
  for (int i = 0; i < s; ++i) {
    const double b = tableau_.b(i);
    if (b != 0.0) x_new_.noalias() += (h * b) * k_.col(i);
  }
  const int bad = internal::FirstNonFinite(x_new_);
  if (bad >= 0) {
    throw SolverError(internal::NonFiniteStateMessage(name_, bad, x_new_[bad], t_, t_new), t_);
  }
  x_.swap(x_new_);
  t_ = t_new;
  grid_.Taken(step);
  ++stats_.steps;
  result.t = t_;
  return result;
}

}  // namespace twinblocks::solvers
