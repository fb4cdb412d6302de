#pragma once

// The run settings' command-line flags, one per setting of the schema
// (runtime/simulation_settings.h), as `run` and `sweep` take them.

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/simulation_settings.h"

namespace twinblocks::cli {

/// The flags' texts as given, and what they mean.
class SettingFlags {
 public:
  /// Adds one option per setting to `cmd` ("--rtol", "--fixed-step-zc"), each checked as its
  /// setting's type and range ask.
  void AddTo(CLI::App* cmd);

  /// The settings given, in schema order, each its value.
  /// @throws UsageError for --atol auto with --auto-scale-atol off.
  std::vector<std::pair<const graph::SimulationSetting*, graph::SettingValue>> Read() const;

  /// `settings` with the given flags' values.
  graph::SimulationSettingsValues ApplyTo(graph::SimulationSettingsValues settings) const;

 private:
  std::map<std::string, std::optional<std::string>> texts_;  ///< by setting name
};

}  // namespace twinblocks::cli
