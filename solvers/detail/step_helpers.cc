#include "solvers/detail/step_helpers.h"

#include <sstream>
#include <stdexcept>

namespace twinblocks::solvers::internal {

std::string NonFiniteStateMessage(std::string_view solver, int index, double value, double t_from,
                                  double t_to) {
  std::ostringstream os;
  os.precision(17);
  os << solver << ": state " << index << " became " << value << " in the step from t = " << t_from
     << " s to t = " << t_to << " s";
  return os.str();
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
