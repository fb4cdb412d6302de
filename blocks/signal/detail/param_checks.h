#pragma once

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "blocks/block_error.h"
#include "common/format_value.h"

/// Construction-time checks of the numeric parameters of the source blocks.
namespace twinblocks::blocks::internal {

/// What a parameter's values must be.
enum class ValueRange { kFinite, kNonNegative, kPositive };

/// Checks every value of parameter `name` against `range` (all finite).
/// @throws BlockError naming the parameter, the first bad element and what was expected.
inline void CheckParamValues(const char* name, const Eigen::VectorXd& v, ValueRange range,
                             const char* unit = "") {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double x = v(i);
    const bool ok = std::isfinite(x) && (range == ValueRange::kFinite ||
                                         (range == ValueRange::kNonNegative && x >= 0.0) ||
                                         (range == ValueRange::kPositive && x > 0.0));
    if (ok) continue;
    const char* expected = range == ValueRange::kFinite        ? "finite"
                           : range == ValueRange::kNonNegative ? "finite and >= 0"
                                                               : "positive and finite";
    std::string what = std::string("parameter '") + name + "' must be " + expected;
    if (*unit != '\0') what += std::string(", in ") + unit;
    what += v.size() == 1 ? ", got " : ", element " + std::to_string(i) + " is ";
    throw BlockError(what + FormatValue(x), name);
  }
}

}  // namespace twinblocks::blocks::internal
