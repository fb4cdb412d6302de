#include "cli/settings_flags.h"

#include "cli/commands.h"
#include "common/number_text.h"
#include "solvers/solver_table.h"

namespace twinblocks::cli {

namespace {

// The check of a setting's flag, from its type and range.
CLI::Validator CheckOf(const graph::SimulationSetting& setting) {
  using graph::SettingKind;
  switch (setting.kind) {
    case SettingKind::kSolver:
      // Unknown names are refused where the solver is made, with the valid ones listed.
      return CLI::Validator();
    case SettingKind::kCount:
      return CLI::Range(1.0, setting.most);
    case SettingKind::kSwitch:
      return CLI::IsMember({"on", "off"});
    case SettingKind::kWord: {
      std::vector<std::string> words;
      std::string w(setting.words);
      for (size_t at = 0; at <= w.size();) {
        const size_t end = std::min(w.find(' ', at), w.size());
        words.push_back(w.substr(at, end - at));
        at = end + 1;
      }
      return CLI::IsMember(words);
    }
    case SettingKind::kNumber:
      break;
  }
  if (setting.range == graph::SettingRange::kFinite) return FiniteNumber();
  const graph::SimulationSetting* s = &setting;
  CLI::Validator check(
      [s](std::string& text) -> std::string {
        if (!s->words.empty() && text == s->words) return {};
        const std::optional<double> v = blocks::ParseDecimal(text);
        if (v && graph::SettingNumberIsValid(*s, *v)) return {};
        return "expected " + graph::SettingRequirement(*s) + ", got '" + text + "'";
      },
      s->range == graph::SettingRange::kPositive ? "POSITIVE" : "NUMBER");
  return check;
}

std::string HelpOf(const graph::SimulationSetting& setting) {
  std::string help(setting.doc);
  if (!help.empty()) help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  if (setting.kind == graph::SettingKind::kSolver) {
    help += ": " + solvers::SolverNamesWhere([](const solvers::SolverInfo&) { return true; }, " ");
  }
  if (!setting.unit.empty()) help += ", " + std::string(setting.unit);
  help += " (default: " + std::string(setting.default_text) + ")";
  return help;
}

}  // namespace

void SettingFlags::AddTo(CLI::App* cmd) {
  for (const graph::SimulationSetting& setting : graph::SimulationSettingsSchema()) {
    std::optional<std::string>& text = texts_[std::string(setting.name)];
    cmd->add_option(graph::CommandLineFlag(setting), text, HelpOf(setting))
        ->check(CheckOf(setting));
  }
}

std::vector<std::pair<const graph::SimulationSetting*, graph::SettingValue>> SettingFlags::Read()
    const {
  std::vector<std::pair<const graph::SimulationSetting*, graph::SettingValue>> values;
  for (const graph::SimulationSetting& setting : graph::SimulationSettingsSchema()) {
    const auto it = texts_.find(std::string(setting.name));
    if (it == texts_.end() || !it->second) continue;
    try {
      values.emplace_back(&setting, graph::ParseSettingText(setting, *it->second));
    } catch (const std::invalid_argument& e) {
      throw UsageError(graph::CommandLineFlag(setting) + ": " + e.what());
    }
  }
  if (const auto conflict = graph::FindSettingConflict(values)) {
    const auto text = [this](const graph::SimulationSetting& setting) {
      return *texts_.at(std::string(setting.name));
    };
    throw UsageError(graph::CommandLineFlag(*conflict->setting) + " " + text(*conflict->setting) +
                     " cannot go with " + graph::CommandLineFlag(*conflict->other) + " " +
                     text(*conflict->other) + ", " + std::string(conflict->why) + "; give " +
                     graph::CommandLineFlag(*conflict->other) + " " +
                     std::string(conflict->remedy));
  }
  return values;
}

graph::SimulationSettingsValues SettingFlags::ApplyTo(
    graph::SimulationSettingsValues settings) const {
  for (const auto& [setting, value] : Read()) setting->set(settings, value);
  return settings;
}

}  // namespace twinblocks::cli
