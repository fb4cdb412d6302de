#include "solvers/explicit_runge_kutta_integrator.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers {
namespace {

// A state this large at a failure has grown without bound (no model quantity in SI units is).
constexpr double kUnboundedState = 1e100;

}  // namespace

ExplicitRungeKuttaIntegrator::ExplicitRungeKuttaIntegrator(std::string name, ButcherTableau tableau,
                                                           OdeProblem* problem,
                                                           const IntegratorOptions& options)
    : Integrator(problem, options),
      name_(std::move(name)),
      tableau_(std::move(tableau)),
      nx_(problem->num_states()),
      crossings_(nx_, options.fixed_step_zero_crossings ? problem->num_zero_crossings() : 0) {
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
  crossings_.Start(problem_, name_, t_, x_, options_.fixed_step, &stats_);
}

void ExplicitRungeKuttaIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  internal::MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0);
  grid_.Save(out);
  crossings_.Save(out);
}

void ExplicitRungeKuttaIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                                  std::span<const double> memory) {
  internal::MemoryReader in(
      memory, 1 + internal::FixedStepGrid::kMemorySize + crossings_.memory_size(), name_);
  t_ = t;
  x_ = x;
  started_ = in.Next() != 0.0;
  grid_.Restore(in);
  crossings_.Restore(in);
}

std::string ExplicitRungeKuttaIntegrator::UnboundedGrowthHint(const Eigen::VectorXd& x,
                                                              double h) const {
  // A fixed-step explicit method on dynamics faster than its step (h |lambda| past its
  // stability boundary) multiplies the error by more than 1 each step until it overflows: the
  // states reach 1e300 and beyond long before a model's own values would. Simulink says as
  // much ("try reducing the step size"); here with the solvers that would not blow up.
  const double largest = x.cwiseAbs().maxCoeff();
  if (std::isfinite(largest) && largest < kUnboundedState) return {};
  std::ostringstream os;
  os.precision(3);
  os << " (the states grew without bound: the step " << h
     << " s may be too long for the model's fastest dynamics, " << name_
     << " being stable only while h |lambda| < " << tableau_.RealStabilityBoundary()
     << "; try a smaller step, ode1be or ros2 (implicit in the stiff terms), or a variable-step "
        "solver)";
  return os.str();
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
         << " s: " << problem_->last_error() << UnboundedGrowthHint(x_stage_, h);
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
    throw SolverError(internal::NonFiniteStateMessage(name_, problem_->DescribeState(bad),
                                                      x_new_[bad], t_, t_new) +
                          UnboundedGrowthHint(x_new_, h),
                      t_);
  }
  double t_reached = t_new;
  const Eigen::Ref<const Eigen::VectorXd> f0 = k_.col(0);  // the first stage: f(t, x)
  result.zero_crossing =
      crossings_.EndStep(problem_, name_, t_, x_, &f0, step, &grid_, &t_reached, &x_new_, &stats_);
  if (result.zero_crossing) result.crossed = crossings_.crossed();
  x_.swap(x_new_);
  t_ = t_reached;
  ++stats_.steps;
  result.t = t_;
  return result;
}

}  // namespace twinblocks::solvers
