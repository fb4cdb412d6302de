#include "settings.h"

#include <optional>
#include <stdexcept>
#include <string>

#include "common/suggest.h"

namespace py = pybind11;

namespace twinblocks::python {

namespace {

double Number(py::handle value, const std::string& name) {
  if (py::isinstance<py::bool_>(value) || !PyNumber_Check(value.ptr()) ||
      py::isinstance<py::str>(value)) {
    throw py::type_error("setting '" + name + "': expected a number, got " +
                         std::string(py::repr(value)));
  }
  return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
}

// "'a', 'b' or 'c'" from space-separated words.
std::string QuotedWords(std::string_view words) {
  std::vector<std::string> w;
  for (size_t at = 0; at <= words.size();) {
    const size_t end = std::min(words.find(' ', at), words.size());
    w.emplace_back("'" + std::string(words.substr(at, end - at)) + "'");
    at = end + 1;
  }
  std::string text;
  for (size_t i = 0; i < w.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == w.size() ? " or " : ", ") + w[i];
  }
  return text;
}

}  // namespace

graph::SettingValue SettingFromPython(const graph::SimulationSetting& setting, py::handle value,
                                      bool allow_none) {
  using graph::SettingKind;
  const std::string name(setting.name);
  const std::string got = ", got " + std::string(py::repr(value));
  switch (setting.kind) {
    case SettingKind::kSolver:
      if (!py::isinstance<py::str>(value)) {
        throw py::type_error("setting 'solver': expected a solver name" + got);
      }
      return value.cast<std::string>();
    case SettingKind::kSwitch:
      if (!py::isinstance<py::bool_>(value)) {
        throw py::type_error("setting '" + name + "': expected True or False" + got);
      }
      return value.cast<bool>();
    case SettingKind::kWord:
      if (!py::isinstance<py::str>(value)) {
        throw py::type_error("setting '" + name + "': expected " + QuotedWords(setting.words) +
                             got);
      }
      try {
        return graph::ParseSettingText(setting, value.cast<std::string>());
      } catch (const std::invalid_argument& e) {
        throw py::value_error(std::string("setting ") + e.what());
      }
    case SettingKind::kNumber:
    case SettingKind::kCount:
      break;
  }
  if (value.is_none() && setting.optional && allow_none) return std::monostate{};
  if (!setting.words.empty() && py::isinstance<py::str>(value)) {
    // Simulink's atol `auto`: from rtol, scaled with the states.
    if (value.cast<std::string>() != setting.words) {
      throw py::value_error("setting '" + name + "': expected " +
                            graph::SettingRequirement(setting) + (allow_none ? ", None" : "") +
                            " or '" + std::string(setting.words) + "'" + got);
    }
    return std::string(setting.words);
  }
  const double v = Number(value, name);
  // Positive numbers are the simulator's to check (graph::CheckSettingRanges), where it
  // also checks the values a model file gave.
  const bool checked_here =
      setting.kind == SettingKind::kCount || setting.range == graph::SettingRange::kFraction;
  if (checked_here && !graph::SettingNumberIsValid(setting, v)) {
    const std::string requirement = setting.kind == SettingKind::kCount
                                        ? graph::SettingRequirement(setting)
                                        : "a number " + graph::SettingRequirement(setting);
    throw py::value_error("setting '" + name + "': expected " + requirement + got);
  }
  return v;
}

void RefuseSettingConflicts(
    std::span<const std::pair<const graph::SimulationSetting*, graph::SettingValue>> given) {
  const auto conflict = graph::FindSettingConflict(given);
  if (!conflict) return;
  const auto python = [](const graph::SettingValue& v) -> std::string {
    if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? "True" : "False";
    if (std::holds_alternative<std::string>(v)) return "'" + std::get<std::string>(v) + "'";
    if (std::holds_alternative<double>(v)) return graph::FormatNumber(std::get<double>(v));
    return "None";
  };
  throw py::value_error("setting '" + std::string(conflict->setting->name) + "': cannot be " +
                        python(conflict->value) + " with " + std::string(conflict->other->name) +
                        "=" + python(conflict->other_value) + ", " + std::string(conflict->why) +
                        "; give " + std::string(conflict->other->name) + " " +
                        std::string(conflict->remedy));
}

graph::SimulationSettingsValues ApplySettings(graph::SimulationSettingsValues s,
                                              const py::kwargs& settings) {
  std::vector<std::pair<const graph::SimulationSetting*, graph::SettingValue>> given;
  for (auto [key, value] : settings) {
    const std::string name = key.cast<std::string>();
    const graph::SimulationSetting* setting = graph::FindSimulationSetting(name);
    if (setting == nullptr) {
      std::string names;
      for (const std::string& n : graph::SimulationSettingNames()) {
        names += (names.empty() ? "" : ", ") + n;
      }
      throw py::type_error("unknown simulation setting '" + name + "'; expected one of: " + names);
    }
    given.emplace_back(setting, SettingFromPython(*setting, value, /*allow_none=*/true));
  }
  // All read before any is set: a conflict is refused whatever the keywords' order.
  RefuseSettingConflicts(given);
  for (const auto& [setting, value] : given) setting->set(s, value);
  return s;
}

py::dict SettingsDict(const graph::SimulationSettingsValues& s) {
  py::dict d;
  for (const graph::SimulationSetting& setting : graph::SimulationSettingsSchema()) {
    const graph::SettingValue v = setting.get(s);
    py::object o = py::none();
    if (const double* x = std::get_if<double>(&v)) {
      o = setting.kind == graph::SettingKind::kCount ? py::object(py::int_(static_cast<int>(*x)))
                                                     : py::object(py::float_(*x));
    } else if (const bool* b = std::get_if<bool>(&v)) {
      o = py::bool_(*b);
    } else if (const std::string* w = std::get_if<std::string>(&v)) {
      o = py::str(*w);
    }
    d[py::str(std::string(setting.name))] = o;
  }
  return d;
}

}  // namespace twinblocks::python
