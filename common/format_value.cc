#include "common/format_value.h"

#include <charconv>
#include <cmath>

namespace twinblocks::blocks {

std::string FormatValue(double value) {
  // to_chars may write "-nan"; a NaN has no sign worth showing.
  if (std::isnan(value)) return "nan";
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

}  // namespace twinblocks::blocks
