#pragma once

#include <string>
#include <vector>

#include "blocks/block_error.h"

namespace twinblocks::blocks::internal {

/// How a discrete block approximates 1/s over one sample period T (Simulink's "Integrator
/// method" and "Filter method"): forward Euler T / (z - 1), backward Euler T z / (z - 1),
/// trapezoidal (T / 2) (z + 1) / (z - 1).
///
/// Every method is one state s and an input g: the output at hit k is s[k] + now T g[k], the
/// next state s[k+1] = s[k] + T g[k]. `now` is the share of the step taken at once (0, 1,
/// 1/2): nonzero means the input is direct feedthrough.
struct IntegrationMethod {
  enum class Kind { kForwardEuler, kBackwardEuler, kTrapezoidal };
  Kind kind = Kind::kForwardEuler;
  double now = 0.0;

  /// The parameter's words, in the order the docs list them.
  static std::vector<std::string> Words() {
    return {"forward-euler", "backward-euler", "trapezoidal"};
  }

  /// From the parameter's word. @throws BlockError naming `param` for another word.
  static IntegrationMethod FromWord(const std::string& word, const char* param) {
    if (word == "forward-euler") return {Kind::kForwardEuler, 0.0};
    if (word == "backward-euler") return {Kind::kBackwardEuler, 1.0};
    if (word == "trapezoidal") return {Kind::kTrapezoidal, 0.5};
    throw BlockError(std::string("parameter '") + param +
                         "' must be forward-euler, backward-euler or trapezoidal, got '" + word +
                         "'",
                     param);
  }

  bool feedthrough() const { return now != 0.0; }
};

}  // namespace twinblocks::blocks::internal
