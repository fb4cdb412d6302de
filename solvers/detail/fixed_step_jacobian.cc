#include "solvers/detail/fixed_step_jacobian.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace twinblocks::solvers::internal {
namespace {

std::string TimeText(double t) {
  std::ostringstream os;
  os.precision(17);
  os << t;
  return os.str();
}

}  // namespace

FixedStepJacobian::FixedStepJacobian(std::string_view solver, OdeProblem* problem,
                                     const IntegratorOptions& options, bool uses_dfdt)
    : solver_(solver),
      problem_(problem),
      nx_(problem->num_states()),
      uses_dfdt_(uses_dfdt),
      fixed_step_(options.fixed_step),
      W_(*problem, options.jacobian_method),
      jacobian_steps_(options.jacobian_steps.value_or(1)) {
  if (jacobian_steps_ < 1) {
    throw std::invalid_argument(std::string(solver_) + ": jacobian_steps must be >= 1, got " +
                                std::to_string(jacobian_steps_));
  }
}

void FixedStepJacobian::Evaluate(double t, const Eigen::VectorXd& x,
                                 Eigen::Ref<Eigen::VectorXd> out, double t_from,
                                 IntegratorStats* stats) {
  ++stats->rhs_evals;
  const int flag = problem_->CalcDerivatives(t, x, out);
  if (flag != 0) {
    throw SolverError(std::string(solver_) + ": the derivative evaluation failed (code " +
                          std::to_string(flag) + ") at t = " + TimeText(t) +
                          " s: " + problem_->last_error(),
                      t_from);
  }
  // A non-finite derivative would reach the state through the linear solves; name it here,
  // before it makes the iteration matrix look singular.
  const int bad = FirstNonFinite(out);
  if (bad >= 0) {
    throw SolverError(
        NonFiniteStateMessage(solver_, problem_->DescribeState(bad), out[bad], t_from, t), t_from);
  }
}

void FixedStepJacobian::Prepare(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0,
                                double gamma_h, double t_from, IntegratorStats* stats) {
  const bool kept = age_ >= 0 && age_ < jacobian_steps_;
  if (!kept) Form(t, x, f0, t_from, stats);
  // Factors of an older step serve while gamma h is the same to round-off (every step but
  // the short ones that land on a stop).
  if (std::abs(gamma_h - factored_gamma_h_) <= 1e-12 * factored_gamma_h_) return;
  factored_gamma_h_ = 0.0;
  if (!W_.Factor(gamma_h)) {
    // A kept J may have gone stale (a contact closed since): try the current one first.
    if (kept && W_.nonfinite_state() < 0) {
      Form(t, x, f0, t_from, stats);
      if (W_.Factor(gamma_h)) {
        factored_gamma_h_ = gamma_h;
        return;
      }
    }
    if (W_.nonfinite_state() >= 0) {
      throw SolverError(std::string(solver_) + ": the Jacobian of " +
                            problem_->DescribeState(W_.nonfinite_state()) +
                            " is NaN or infinite at t = " + TimeText(t) + " s",
                        t_from);
    }
    throw SolverError(std::string(solver_) + ": I - gamma h J is singular at t = " + TimeText(t) +
                          " s (the Jacobian has an eigenvalue near 1/(gamma h))",
                      t_from);
  }
  factored_gamma_h_ = gamma_h;
}

void FixedStepJacobian::Form(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0,
                             double t_from, IntegratorStats* stats) {
  ++stats->jacobian_evals;
  const int flag =
      W_.Form(problem_, t, x, f0, [&](const Eigen::VectorXd& xp, Eigen::VectorXd& out) {
        Evaluate(t, xp, out, t_from, stats);
      });
  if (flag != 0) {
    throw SolverError(std::string(solver_) + ": the Jacobian evaluation failed (code " +
                          std::to_string(flag) + ") at t = " + TimeText(t) +
                          " s: " + problem_->last_error(),
                      t_from);
  }
  if (uses_dfdt_) stats->rhs_evals += W_.FormTimeDerivative(problem_, t, x, f0, fixed_step_);
  age_ = 0;
  factored_gamma_h_ = 0.0;
}

size_t FixedStepJacobian::memory_size() const {
  return IterationMatrix::memory_size(nx_) +
         (jacobian_steps_ > 1 ? IterationMatrix::kept_jacobian_memory_size(nx_) : 0);
}

void FixedStepJacobian::Save(MemoryWriter& out) const {
  W_.SaveMemory(out);
  // A J that serves more steps is part of what the next steps compute.
  if (jacobian_steps_ > 1) W_.SaveKeptJacobian(out, age_, factored_gamma_h_);
}

void FixedStepJacobian::Restore(MemoryReader& in) {
  W_.RestoreMemory(in);
  age_ = -1;
  factored_gamma_h_ = 0.0;
  if (jacobian_steps_ > 1) W_.RestoreKeptJacobian(in, &age_, &factored_gamma_h_);
}

}  // namespace twinblocks::solvers::internal
