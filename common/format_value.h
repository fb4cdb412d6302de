#pragma once

#include <string>

namespace twinblocks::blocks {

/// A number in a message as a person writes it, the shortest text that reads back to the
/// same double (0.001, 1e-05, nan), not std::to_string's fixed six decimals (0.001000).
std::string FormatValue(double value);

}  // namespace twinblocks::blocks
