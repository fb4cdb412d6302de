#include "common/input_limits.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "common/number_text.h"

namespace twinblocks::blocks {

namespace {

InputLimits& Limits() {
  static InputLimits limits;
  return limits;
}

}  // namespace

const std::vector<InputLimitInfo>& InputLimitTable() {
  static const std::vector<InputLimitInfo> table = {
      {"file_bytes", &InputLimits::file_bytes, "bytes",
       "size of any file read: model files, includes, URDF, FromFile data, meshes, results"},
      {"xml_depth", &InputLimits::xml_depth, "levels",
       "element nesting in an XML file (model or URDF)"},
      {"nesting", &InputLimits::nesting, "levels",
       "subsystems and define instances inside one another"},
      {"blocks", &InputLimits::blocks, "blocks", "blocks of a model once its defines expand"},
      {"signal_width", &InputLimits::signal_width, "elements",
       "elements of one signal: a port's width, an inport's width"},
      {"ports", &InputLimits::ports, "ports",
       "ports of one block: a Mux's inputs, a Demux's outputs, a Sum's signs"},
      {"block_values", &InputLimits::block_values, "values",
       "states and work memory of one block (a Delay's n times its width)"},
      {"model_values", &InputLimits::model_values, "values",
       "outputs, states and work memory of all blocks of a model together"},
      {"parameter_values", &InputLimits::parameter_values, "values",
       "elements of one numeric parameter (a vector or matrix)"},
      {"sweep_runs", &InputLimits::sweep_runs, "runs", "runs of one sweep"},
  };
  return table;
}

const InputLimits& CurrentInputLimits() { return Limits(); }

void SetInputLimits(const InputLimits& limits) { Limits() = limits; }

void SetInputLimit(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  const std::string name(assignment.substr(0, eq));
  std::string valid;
  for (const InputLimitInfo& info : InputLimitTable()) {
    valid += (valid.empty() ? "" : ", ") + std::string(info.name);
  }
  if (eq == std::string_view::npos) {
    throw std::invalid_argument("--limit '" + std::string(assignment) +
                                "': expected NAME=VALUE with NAME one of: " + valid);
  }
  const std::string text(assignment.substr(eq + 1));
  for (const InputLimitInfo& info : InputLimitTable()) {
    if (name != info.name) continue;
    const std::optional<double> parsed = ParseDecimal(text);
    const double value = parsed.value_or(0.0);
    // 9e18: below the largest int64, so that the conversion below is exact and defined.
    if (!parsed || value < 1.0 || value > 9e18 || value != std::floor(value)) {
      throw std::invalid_argument("--limit " + name + "='" + text +
                                  "': expected a whole number of " + info.unit + ", 1 or more");
    }
    // Nesting is walked by recursion (the readers', the compiler's, liburdfdom's): past these
    // depths the stack, not memory, would run out.
    const std::int64_t most = info.field == &InputLimits::nesting     ? 1000
                              : info.field == &InputLimits::xml_depth ? 10000
                                                                      : INT64_MAX;
    if (value > static_cast<double>(most)) {
      throw std::invalid_argument("--limit " + name + "=" + text + ": at most " +
                                  std::to_string(most) + " " + info.unit +
                                  " (deeper nesting would exhaust the stack)");
    }
    Limits().*info.field = static_cast<std::int64_t>(value);
    return;
  }
  throw std::invalid_argument("--limit: unknown limit '" + name + "'; expected one of: " + valid);
}

std::string OverLimit(std::string_view name) {
  for (const InputLimitInfo& info : InputLimitTable()) {
    if (name != info.name) continue;
    return "over the limit of " + std::to_string(Limits().*info.field) + " " + info.unit +
           " (raise it with --limit " + info.name + "=N)";
  }
  throw std::logic_error("OverLimit: no limit named '" + std::string(name) + "'");
}

}  // namespace twinblocks::blocks
