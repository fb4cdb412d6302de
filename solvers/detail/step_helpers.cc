#include "solvers/detail/step_helpers.h"

#include <sstream>
#include <stdexcept>

namespace twinblocks::solvers::internal {

std::string NonFiniteStateMessage(std::string_view solver, const std::string& state, double value,
                                  double t_from, double t_to) {
  std::ostringstream os;
  os.precision(17);
  os << solver << ": " << state << " became " << value << " in the step from t = " << t_from
     << " s to t = " << t_to << " s";
  return os.str();
}

Eigen::VectorXd AbsoluteTolerances(std::string_view solver, const IntegratorOptions& options,
                                   int nx) {
  if (options.state_atol.size() == 0) return Eigen::VectorXd::Constant(nx, options.atol);
  if (options.state_atol.size() != nx) {
    throw std::invalid_argument(std::string(solver) + ": state_atol has " +
                                std::to_string(options.state_atol.size()) +
                                " entries, the problem has " + std::to_string(nx) + " states");
  }
  for (Eigen::Index i = 0; i < nx; ++i) {
    const double a = options.state_atol[i];
    if (!(a > 0.0) || !std::isfinite(a)) {
      std::ostringstream os;
      os << solver << ": the absolute tolerance of state " << i
         << " must be a positive number, got " << a;
      throw std::invalid_argument(os.str());
    }
  }
  return options.state_atol;
}

AbsoluteToleranceScaling::AbsoluteToleranceScaling(std::string_view solver,
                                                   const IntegratorOptions& options, int nx) {
  if (!options.scale_atol) return;
  const Eigen::Index fixed = options.fixed_atol.size();
  if (fixed != 0 && fixed != nx) {
    throw std::invalid_argument(std::string(solver) + ": fixed_atol has " + std::to_string(fixed) +
                                " entries, the problem has " + std::to_string(nx) + " states");
  }
  growth_ = Eigen::VectorXd::Constant(nx, options.rtol);
  for (Eigen::Index i = 0; i < fixed; ++i) {
    if (options.fixed_atol[i]) growth_[i] = 0.0;
  }
}

void AbsoluteToleranceScaling::Grow(const Eigen::Ref<const Eigen::VectorXd>& x,
                                    Eigen::Ref<Eigen::VectorXd> atol) const {
  for (Eigen::Index i = 0; i < growth_.size(); ++i) {
    const double reached = growth_[i] * std::abs(x[i]);
    // A NaN state grows nothing: the step that made it fails on its own.
    if (reached > atol[i]) atol[i] = reached;
  }
}

void CheckStateSize(std::string_view solver, Eigen::Index size, int nx) {
  if (size != nx) {
    throw std::invalid_argument(std::string(solver) + ": Reset got " + std::to_string(size) +
                                " states, the problem has " + std::to_string(nx));
  }
}

void CheckStepRequest(std::string_view solver, bool started, double t, double t_stop) {
  if (!started) throw std::logic_error(std::string(solver) + ": Step called before Reset");
  if (!(t_stop >= t)) {
    std::ostringstream os;
    os.precision(17);
    os << solver << ": Step(t_stop = " << t_stop << ") is before the current time " << t;
    throw std::logic_error(os.str());
  }
}

}  // namespace twinblocks::solvers::internal
