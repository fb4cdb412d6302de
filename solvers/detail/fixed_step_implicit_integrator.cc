#include "solvers/detail/fixed_step_implicit_integrator.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace twinblocks::solvers::internal {

FixedStepImplicitIntegrator::FixedStepImplicitIntegrator(std::string_view solver,
                                                         OdeProblem* problem,
                                                         const IntegratorOptions& options,
                                                         bool uses_dfdt)
    : Integrator(problem, options),
      nx_(problem->num_states()),
      jac_(solver, problem, options, uses_dfdt),
      crossings_(nx_, options.fixed_step_zero_crossings ? problem->num_zero_crossings() : 0) {
  if (!(options.fixed_step > 0.0) || !std::isfinite(options.fixed_step)) {
    throw std::invalid_argument(std::string(solver) +
                                ": fixed_step must be positive and finite, got " +
                                std::to_string(options.fixed_step));
  }
  x_ = Eigen::VectorXd::Zero(nx_);
}

void FixedStepImplicitIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  StartAt(t, x);
  OnRestart();
  grid_.Restart(t);
  crossings_.Start(problem_, name(), t_, x_, options_.fixed_step, &stats_);
}

void FixedStepImplicitIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  MemoryWriter out(memory);
  out << (started_ ? 1.0 : 0.0);
  grid_.Save(out);
  crossings_.Save(out);
  jac_.Save(out);
}

void FixedStepImplicitIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                                 std::span<const double> memory) {
  MemoryReader in(memory,
                  1 + FixedStepGrid::kMemorySize + crossings_.memory_size() + jac_.memory_size(),
                  name());
  t_ = t;
  x_ = x;
  OnRestart();
  started_ = in.Next() != 0.0;
  grid_.Restore(in);
  crossings_.Restore(in);
  jac_.Restore(in);
}

StepResult FixedStepImplicitIntegrator::FinishStep(const FixedStepGrid::Step& step,
                                                   const Eigen::VectorXd* f0,
                                                   Eigen::VectorXd* x_new) {
  StepResult result;
  double t_reached = step.t_new;
  if (f0 != nullptr) {
    const Eigen::Ref<const Eigen::VectorXd> f0_ref(*f0);
    result.zero_crossing = crossings_.EndStep(problem_, name(), t_, x_, &f0_ref, step, &grid_,
                                              &t_reached, x_new, &stats_);
  } else {
    result.zero_crossing = crossings_.EndStep(problem_, name(), t_, x_, nullptr, step, &grid_,
                                              &t_reached, x_new, &stats_);
  }
  if (result.zero_crossing) result.crossed = crossings_.crossed();
  x_.swap(*x_new);
  t_ = t_reached;
  jac_.StepTaken();
  ++stats_.steps;
  result.t = t_;
  return result;
}

}  // namespace twinblocks::solvers::internal
