#pragma once

// The schema of the run settings (the model's <simulation> element, the command line's
// flags, the Python keywords): each setting declared once, with its type, default, valid
// range, unit and one line of documentation. Every reader of settings (the compiler, `run`,
// `sweep`, the Python module) and the simulator's validation go through it, and the docs'
// table is printed from it (`twinblocks settings`).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/system.h"

namespace twinblocks::graph {

/// A setting's value: unset (the solver's own default), a number, on/off, or a word.
using SettingValue = std::variant<std::monostate, double, bool, std::string>;

/// What a setting holds.
enum class SettingKind {
  kSolver,  ///< a name from the solver table
  kNumber,  ///< a decimal number (an expression in a model file)
  kCount,   ///< a whole number from 1 to SimulationSetting::most
  kSwitch,  ///< on or off (True or False in Python)
  kWord,    ///< one of SimulationSetting::words
};

/// The values a number may take.
enum class SettingRange {
  kFinite,    ///< any finite number
  kPositive,  ///< > 0 and finite
  kFraction,  ///< in [0, 1)
};

/// One setting of the schema.
struct SimulationSetting {
  std::string_view name;  ///< as in <simulation NAME="...">, and the Python keyword
  SettingKind kind;
  SettingRange range;  ///< kNumber only
  double most;         ///< kCount only: the largest count
  /// May be unset (None in Python): the solver's or the run's own default applies.
  bool optional;
  /// kWord: the words, space-separated; kNumber: a word it takes besides numbers ("auto").
  std::string_view words;
  std::string_view default_text;  ///< the default as the docs state it
  std::string_view unit;          ///< "s", or "" for none
  std::string_view doc;           ///< one line
  /// The command-line flag when it is not the name's ("--fixed-step-zc"); "" otherwise.
  std::string_view flag;
  /// Writes `value` (checked) into the settings.
  void (*set)(SimulationSettingsValues& settings, const SettingValue& value);
  /// The setting's value in `settings`.
  SettingValue (*get)(const SimulationSettingsValues& settings);
};

/// Every setting, in the order the docs list them.
std::span<const SimulationSetting> SimulationSettingsSchema();

/// The setting called `name`, or nullptr.
const SimulationSetting* FindSimulationSetting(std::string_view name);

/// The settings' names in schema order.
std::vector<std::string> SimulationSettingNames();

/// The command-line flag of the setting: its `flag`, or "--" and its name with '-' for '_'.
std::string CommandLineFlag(const SimulationSetting& setting);

/// What a valid value is, as "must be ..." ends: "a positive number", "a whole number >= 1",
/// "in [0, 1)", "on or off", "land or step_over", "a finite number".
std::string SettingRequirement(const SimulationSetting& setting);

/// True when the number `v` is valid for the (kNumber or kCount) setting.
bool SettingNumberIsValid(const SimulationSetting& setting, double v);

/// The value of `text` for the setting, as a model file or the command line writes it (a
/// plain decimal number, on/off, a word).
/// @throws std::invalid_argument "'NAME' must be REQUIREMENT, got 'TEXT'".
SettingValue ParseSettingText(const SimulationSetting& setting, const std::string& text);

/// Checks the values a run is given, each against its setting's range (numbers that are
/// set): the one place a setting's range is enforced before a run starts.
/// @throws std::invalid_argument "NAME must be REQUIREMENT, got VALUE".
void CheckSettingRanges(const SimulationSettingsValues& settings);

/// A setting given together with another that it contradicts, whatever the values' source:
/// `setting` given `value` against `other` given `other_value`, `why` (", which ..."), and
/// the remedy for `other` ("give OTHER " + remedy). Each reader words it in its own terms.
struct SettingConflict {
  const SimulationSetting* setting;
  SettingValue value;
  const SimulationSetting* other;
  SettingValue other_value;
  std::string_view why;
  std::string_view remedy;
};

/// The settings given together (each once), checked against the rules between settings: the
/// one place such a rule is written. So far one: Simulink's atol `auto` always scales, so
/// auto_scale_atol cannot be off with it.
/// @returns the first conflict, or nullopt.
std::optional<SettingConflict> FindSettingConflict(
    std::span<const std::pair<const SimulationSetting*, SettingValue>> given);

/// The docs' table of the settings (Markdown): name, type, default, unit, description.
std::string SimulationSettingsTable();

}  // namespace twinblocks::graph
