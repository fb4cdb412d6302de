#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "common/format_value.h"

/// How the math blocks treat a result that is not a real number.
namespace twinblocks::blocks::internal {

/// Stops the run: element `i` of `function`'s result is NaN though its inputs are numbers, so
/// they lie outside the function's `domain` ("u >= 0"). Thrown at a major step, the run ends
/// there with the time and the block's path (exit status 3 from the command line), as
/// Simulink stops on a block's invalid input. Inside a solver step the NaN is left to the
/// solver, whose derivative check rejects the step and tries a shorter one.
[[noreturn]] inline void ThrowDomainError(const char* function, const char* domain, int i,
                                          const char* port, double u) {
  throw std::runtime_error(std::string(function) + " of " + port + "[" + std::to_string(i) +
                           "] = " + FormatValue(u) + " is not a real number (" + function +
                           " needs " + domain + ")");
}

/// The same for a function of two inputs.
[[noreturn]] inline void ThrowDomainError(const char* function, const char* domain, int i,
                                          double u1, double u2) {
  throw std::runtime_error(std::string(function) + " of u1[" + std::to_string(i) +
                           "] = " + FormatValue(u1) + " and u2[" + std::to_string(i) +
                           "] = " + FormatValue(u2) + " is not a real number (" + function +
                           " needs " + domain + ")");
}

}  // namespace twinblocks::blocks::internal
