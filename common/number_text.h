#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace twinblocks::blocks {

/// A finite decimal number written as a person writes one: `12`, `-0.5`, `+1.5e-3`, `.25`.
/// nullopt for anything else, whole text or nothing: hexadecimal (`0x10`, which strtod would
/// read as 16), `inf`, `nan`, a decimal comma, a unit (`5ms`), or a value past the largest
/// double. For the numbers of data files and command-line options; model parameters are
/// expressions (model/parameter_evaluator.h).
inline std::optional<double> ParseDecimal(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0.0;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace twinblocks::blocks
