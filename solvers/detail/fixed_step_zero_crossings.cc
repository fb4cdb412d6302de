#include "solvers/detail/fixed_step_zero_crossings.h"

#include <sstream>
#include <string>

namespace twinblocks::solvers::internal {

void FixedStepZeroCrossings::ThrowFailure(OdeProblem* problem, std::string_view solver,
                                          const char* what, int flag, double t) {
  std::ostringstream os;
  os.precision(17);
  os << solver << ": " << what << " failed (code " << flag << ") at t = " << t << " s";
  const char* message = problem->last_error();
  if (message != nullptr && message[0] != '\0') os << ": " << message;
  throw SolverError(os.str(), t);
}

}  // namespace twinblocks::solvers::internal
