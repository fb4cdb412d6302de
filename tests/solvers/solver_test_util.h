#pragma once

#include <string>
#include <vector>

#include "solvers/integrator.h"

namespace twinblocks::solvers::testing {

/// Steps until time() == t_stop (every step's result must not pass t_stop); returns the
/// number of Step calls. Stops early, returning -1, at a zero crossing.
inline long StepTo(Integrator* integrator, double t_stop, bool stop_at_crossing = false) {
  long calls = 0;
  while (integrator->time() < t_stop) {
    const StepResult r = integrator->Step(t_stop);
    ++calls;
    if (r.t > t_stop) return -2;
    if (stop_at_crossing && r.zero_crossing) return -1;
  }
  return calls;
}

inline std::vector<std::string> VariableStepNames() {
  return {"ode23",       "ode45",      "ode23s",      "cvode-bdf",
          "cvode-adams", "arkode-erk", "arkode-dirk", "ida"};
}

/// Test-name-safe form of a solver name ("cvode-bdf" -> "cvode_bdf").
inline std::string SafeName(std::string name) {
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace twinblocks::solvers::testing
