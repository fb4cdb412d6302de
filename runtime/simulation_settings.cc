// The schema of the run settings: one entry per setting.

#include "runtime/simulation_settings.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include "common/number_text.h"
#include "common/suggest.h"
#include "solvers/solver_table.h"

namespace twinblocks::graph {
namespace {

using S = SimulationSettingsValues;
using V = SettingValue;

// Accessors of the three shapes a setting's field has.
std::optional<double> OptionalNumber(const V& v) {
  if (const double* d = std::get_if<double>(&v)) return *d;
  return std::nullopt;
}
V FromOptional(const std::optional<double>& v) { return v ? V(*v) : V(); }
V FromOptionalCount(const std::optional<int>& v) { return v ? V(static_cast<double>(*v)) : V(); }

constexpr double kNone = 0.0;  // `most` of a setting that is not a count

const std::array<SimulationSetting, 18> kSettings = {{
    {"solver", SettingKind::kSolver, SettingRange::kFinite, kNone, false, "",
     solvers::kDefaultSolver, "", "the solver (twinblocks settings lists them)", "",
     [](S& s, const V& v) { s.solver = std::get<std::string>(v); },
     [](const S& s) { return V(s.solver); }},
    {"t_start", SettingKind::kNumber, SettingRange::kFinite, kNone, false, "", "0", "s",
     "start time", "", [](S& s, const V& v) { s.t_start = std::get<double>(v); },
     [](const S& s) { return V(s.t_start); }},
    {"t_end", SettingKind::kNumber, SettingRange::kFinite, kNone, false, "", "10", "s",
     "end time, after t_start", "", [](S& s, const V& v) { s.t_end = std::get<double>(v); },
     [](const S& s) { return V(s.t_end); }},
    {"step", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "",
     "the fastest sample time, at most (t_end - t_start) / 50", "s",
     "step of the fixed-step solvers", "", [](S& s, const V& v) { s.step = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.step); }},
    {"rtol", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "", "1e-3", "",
     "relative tolerance of the variable-step solvers", "",
     [](S& s, const V& v) { s.rtol = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.rtol); }},
    {"atol", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "auto", "1e-6", "",
     "absolute tolerance of the variable-step solvers, or auto (Simulink's: from rtol, growing "
     "with each state's largest size; docs/simulation.md, \"Tolerances\")",
     "",
     [](S& s, const V& v) {
       if (std::holds_alternative<std::string>(v)) {
         s.atol.reset();
         s.auto_scale_atol = true;
       } else {
         s.atol = OptionalNumber(v);
       }
     },
     [](const S& s) { return !s.atol && s.auto_scale_atol ? V("auto") : FromOptional(s.atol); }},
    {"auto_scale_atol", SettingKind::kSwitch, SettingRange::kFinite, kNone, false, "", "off", "",
     "each state's absolute tolerance grows to rtol times its largest size so far (Simulink's "
     "\"Auto scale absolute tolerance\")",
     "", [](S& s, const V& v) { s.auto_scale_atol = std::get<bool>(v); },
     [](const S& s) { return V(s.auto_scale_atol); }},
    {"max_step", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "",
     "(t_end - t_start) / 50", "s", "largest step of the variable-step solvers", "",
     [](S& s, const V& v) { s.max_step = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.max_step); }},
    {"initial_step", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "",
     "the solver's choice", "s", "first step of the variable-step solvers", "",
     [](S& s, const V& v) { s.initial_step = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.initial_step); }},
    {"output_interval", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "",
     "a row per major step", "s", "write a row of results every this many seconds", "",
     [](S& s, const V& v) { s.output_interval = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.output_interval); }},
    {"zero_crossings", SettingKind::kSwitch, SettingRange::kFinite, kNone, false, "", "on", "",
     "locate zero crossings inside the steps of the variable-step solvers", "",
     [](S& s, const V& v) { s.zero_crossings = std::get<bool>(v); },
     [](const S& s) { return V(s.zero_crossings); }},
    {"fixed_step_zero_crossings", SettingKind::kSwitch, SettingRange::kFinite, kNone, false, "",
     "off", "",
     "locate zero crossings inside the steps of the fixed-step solvers too, ending a step just "
     "past each (docs/simulation.md)",
     "--fixed-step-zc", [](S& s, const V& v) { s.fixed_step_zero_crossings = std::get<bool>(v); },
     [](const S& s) { return V(s.fixed_step_zero_crossings); }},
    {"jacobian_steps", SettingKind::kCount, SettingRange::kFinite, 1e6, true, "",
     "each solver's own rule", "",
     "the solvers that use a Jacobian: accepted steps one Jacobian serves at most "
     "(docs/simulation.md)",
     "",
     [](S& s, const V& v) {
       const std::optional<double> n = OptionalNumber(v);
       s.jacobian_steps = n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
     },
     [](const S& s) { return FromOptionalCount(s.jacobian_steps); }},
    {"sample_hits", SettingKind::kWord, SettingRange::kFinite, kNone, false, "land step_over",
     "land", "",
     "variable-step solvers: land (every discrete sample hit ends a step) or step_over (steps "
     "pass hits that change nothing the solver reads; docs/simulation.md)",
     "", [](S& s, const V& v) { s.sample_hits = ParseSampleHits(std::get<std::string>(v)); },
     [](const S& s) { return V(s.sample_hits == S::SampleHits::kLand ? "land" : "step_over"); }},
    {"jacobian_method", SettingKind::kWord, SettingRange::kFinite, kNone, false,
     "auto perturbation blocks", "auto", "",
     "where the solvers that use a Jacobian get it: auto (each solver's own way), perturbation "
     "(differences of the whole diagram) or blocks (the blocks' stiff terms; "
     "docs/simulation.md)",
     "",
     [](S& s, const V& v) { s.jacobian_method = ParseJacobianMethod(std::get<std::string>(v)); },
     [](const S& s) { return V(JacobianMethodWord(s.jacobian_method)); }},
    {"max_consecutive_zc", SettingKind::kCount, SettingRange::kFinite, 1e9, false, "", "1000", "",
     "fail after this many located zero crossings in a row, each within zc_time_tolerance "
     "max(1, abs(t)) of the one before (Simulink's consecutive zero crossings)",
     "", [](S& s, const V& v) { s.max_consecutive_zc = static_cast<int>(std::get<double>(v)); },
     [](const S& s) { return V(static_cast<double>(s.max_consecutive_zc)); }},
    {"zc_time_tolerance", SettingKind::kNumber, SettingRange::kFraction, kNone, false, "",
     "10·128·eps", "", "relative time within which zero crossings are consecutive", "",
     [](S& s, const V& v) { s.zc_time_tolerance = std::get<double>(v); },
     [](const S& s) { return V(s.zc_time_tolerance); }},
    {"max_wall_time", SettingKind::kNumber, SettingRange::kPositive, kNone, true, "", "no limit",
     "s",
     "stop the run after this much wall-clock time, as a failed run stops (exit status 3, "
     "the results so far written)",
     "", [](S& s, const V& v) { s.max_wall_time = OptionalNumber(v); },
     [](const S& s) { return FromOptional(s.max_wall_time); }},
}};

// "a, b or c" from space-separated words.
std::string OrList(std::string_view words) {
  std::vector<std::string> w;
  size_t at = 0;
  while (at < words.size()) {
    const size_t end = std::min(words.find(' ', at), words.size());
    w.emplace_back(words.substr(at, end - at));
    at = end + 1;
  }
  std::string text;
  for (size_t i = 0; i < w.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == w.size() ? " or " : ", ") + w[i];
  }
  return text;
}

std::string TypeText(const SimulationSetting& s) {
  switch (s.kind) {
    case SettingKind::kSolver:
      return "solver name";
    case SettingKind::kCount:
      return "whole number >= 1";
    case SettingKind::kSwitch:
      return "on or off";
    case SettingKind::kWord:
      return OrList(s.words);
    case SettingKind::kNumber:
      break;
  }
  std::string text = s.range == SettingRange::kPositive   ? "number > 0"
                     : s.range == SettingRange::kFraction ? "number in [0, 1)"
                                                          : "number";
  if (!s.words.empty()) text += " or " + OrList(s.words);
  return text;
}

}  // namespace

std::span<const SimulationSetting> SimulationSettingsSchema() { return kSettings; }

const SimulationSetting* FindSimulationSetting(std::string_view name) {
  for (const SimulationSetting& s : kSettings) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> SimulationSettingNames() {
  std::vector<std::string> names;
  for (const SimulationSetting& s : kSettings) names.emplace_back(s.name);
  return names;
}

std::string CommandLineFlag(const SimulationSetting& setting) {
  if (!setting.flag.empty()) return std::string(setting.flag);
  std::string flag = "--" + std::string(setting.name);
  for (char& c : flag) c = c == '_' ? '-' : c;
  return flag;
}

std::string SettingRequirement(const SimulationSetting& setting) {
  switch (setting.kind) {
    case SettingKind::kSolver:
      return "a solver name";
    case SettingKind::kCount:
      return "a whole number >= 1";
    case SettingKind::kSwitch:
      return "on or off";
    case SettingKind::kWord:
      return OrList(setting.words);
    case SettingKind::kNumber:
      break;
  }
  switch (setting.range) {
    case SettingRange::kPositive:
      return "a positive number";
    case SettingRange::kFraction:
      return "in [0, 1)";
    case SettingRange::kFinite:
      break;
  }
  return "a finite number";
}

bool SettingNumberIsValid(const SimulationSetting& setting, double v) {
  if (!std::isfinite(v)) return false;
  if (setting.kind == SettingKind::kCount) {
    return v >= 1.0 && v <= setting.most && v == std::floor(v);
  }
  switch (setting.range) {
    case SettingRange::kPositive:
      return v > 0.0;
    case SettingRange::kFraction:
      return v >= 0.0 && v < 1.0;
    case SettingRange::kFinite:
      break;
  }
  return true;
}

SettingValue ParseSettingText(const SimulationSetting& setting, const std::string& text) {
  auto refuse = [&]() -> SettingValue {
    throw std::invalid_argument("'" + std::string(setting.name) + "' must be " +
                                SettingRequirement(setting) + ", got '" + text + "'");
  };
  switch (setting.kind) {
    case SettingKind::kSolver:
      return text;
    case SettingKind::kSwitch:
      if (text != "on" && text != "off") return refuse();
      return text == "on";
    case SettingKind::kWord: {
      const std::string words = " " + std::string(setting.words) + " ";
      if (text.empty() || text.find(' ') != std::string::npos ||
          words.find(" " + text + " ") == std::string::npos) {
        return refuse();
      }
      return text;
    }
    case SettingKind::kNumber:
    case SettingKind::kCount:
      break;
  }
  if (!setting.words.empty() && text == setting.words) return text;
  const std::optional<double> v = blocks::ParseDecimal(text);
  if (!v || !SettingNumberIsValid(setting, *v)) return refuse();
  return *v;
}

std::optional<SettingConflict> FindSettingConflict(
    std::span<const std::pair<const SimulationSetting*, SettingValue>> given) {
  const std::pair<const SimulationSetting*, SettingValue>* atol_auto = nullptr;
  const std::pair<const SimulationSetting*, SettingValue>* scale_off = nullptr;
  for (const auto& g : given) {
    if (g.first->name == "atol" && std::holds_alternative<std::string>(g.second)) atol_auto = &g;
    if (g.first->name == "auto_scale_atol" && std::holds_alternative<bool>(g.second) &&
        !std::get<bool>(g.second)) {
      scale_off = &g;
    }
  }
  if (atol_auto == nullptr || scale_off == nullptr) return std::nullopt;
  return SettingConflict{scale_off->first,
                         scale_off->second,
                         atol_auto->first,
                         atol_auto->second,
                         "which always scales (Simulink's rule)",
                         "a number to keep it fixed"};
}

void CheckSettingRanges(const SimulationSettingsValues& settings) {
  for (const SimulationSetting& s : kSettings) {
    if (s.kind != SettingKind::kNumber && s.kind != SettingKind::kCount) continue;
    // Start and end are any numbers the readers took; the run checks their order.
    if (s.kind == SettingKind::kNumber && s.range == SettingRange::kFinite) continue;
    const SettingValue value = s.get(settings);
    const double* v = std::get_if<double>(&value);
    if (v == nullptr || SettingNumberIsValid(s, *v)) continue;
    throw std::invalid_argument(std::string(s.name) + " must be " + SettingRequirement(s) +
                                ", got " + FormatNumber(*v));
  }
}

std::string SimulationSettingsTable() {
  std::string table =
      "| setting | value | default | unit | description |\n"
      "|---|---|---|---|---|\n";
  for (const SimulationSetting& s : kSettings) {
    table += "| `" + std::string(s.name) + "` | " + TypeText(s) + " | " +
             std::string(s.default_text) + " | " + std::string(s.unit.empty() ? "-" : s.unit) +
             " | " + std::string(s.doc) + " |\n";
  }
  return table;
}

}  // namespace twinblocks::graph
