#pragma once

#include <string>
#include <vector>

namespace twinblocks::graph {

/// "; did you mean 'Gain'?" when one of `valid` is a likely misspelling of `name`, else "".
std::string SuggestionFor(const std::string& name, const std::vector<std::string>& valid);

/// A number as a person would write it: shortest text that reads back to the same double
/// ("nan" for any NaN, "inf" and "-inf").
std::string FormatNumber(double value);

}  // namespace twinblocks::graph
