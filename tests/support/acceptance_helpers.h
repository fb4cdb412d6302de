#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "runtime/results.h"
#include "runtime/simulator.h"
#include "runtime/system.h"

namespace twinblocks::multibody {
class Mechanism;
}

namespace twinblocks::testing {

/// What one run of a model gives a test.
struct RunOutput {
  graph::SimulationOutcome outcome;
  graph::Recording recording;
  graph::SimulationStats stats;
  std::string solver;
};

using SettingsTweak = std::function<void(graph::SimulationSettingsValues*)>;

/// Reads, compiles and runs a model file given relative to the source tree.
RunOutput RunModelFile(const std::string& source_relative_path, const SettingsTweak& tweak = {});

/// Reads, compiles and runs a model given as XML text.
RunOutput RunModelText(const std::string& xml, const SettingsTweak& tweak = {});

/// The values of one logged column; fails the test when it is absent.
std::vector<double> Column(const graph::Recording& rec, const std::string& name);
std::vector<double> Times(const graph::Recording& rec);

/// The columns base[0] ... base[count - 1] of a logged vector signal.
std::vector<std::vector<double>> Columns(const graph::Recording& rec, const std::string& base,
                                         int count);

/// The mechanism block a compiled model holds (a model has one at most); throws without one.
const multibody::Mechanism& FindMechanism(const graph::System& system);

/// The G2 grasp's contact signals as logged (models/gripper4/g2_power.xml), in the paper's
/// order: F1P1 ... F4P3, then the palm.
extern const char* const kGraspContacts[13];
/// The time of each grasp contact signal's first row at 1, -1 where it never sets.
std::vector<double> FirstSetTimes(const graph::Recording& rec);

/// A measured figure as text for RecordProperty (4 significant digits).
std::string Figure(double value);

/// What the `twinblocks` program printed and how it exited.
struct CliResult {
  int status = -1;   ///< exit status, or 128 + signal
  std::string text;  ///< stderr, and stdout too when asked for
};

/// Runs a shell command line; `text` is what it wrote on stdout (redirect stderr in `command`).
CliResult RunShell(const std::string& command);

/// Runs the `twinblocks` program built with the tests with `args` (shell words).
CliResult RunCli(const std::string& args, bool with_stdout = false);

/// The same with stdout and stderr in one text, in the order a terminal shows them.
CliResult RunCliWithStdout(const std::string& args);

/// How many lines `text` holds (its newlines).
int CountLines(const std::string& text);

/// The whole content of a file, byte for byte ("" when it cannot be read).
std::string ReadBytes(const std::filesystem::path& path);

/// Runs `check` and `run` on a bad model file and expects, for each, exit status 2 and one line
/// holding `file:line:` and every phrase in `says`.
void ExpectOneLineBadInput(const std::string& path, const std::string& file, int line,
                           const std::vector<std::string>& says);

/// Absolute path of a file in the source tree.
std::string SourcePath(const std::string& relative);

/// An empty directory for one test's files, under the test's temporary directory
/// (`prefix` + `name`, removed first if it is there).
std::filesystem::path FreshDirectory(const std::string& prefix, const std::string& name);

/// Writes `text` to `path`.
void WriteText(const std::filesystem::path& path, const std::string& text);

}  // namespace twinblocks::testing
