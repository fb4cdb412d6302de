#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "model/model.h"
#include "runtime/system.h"
#include "xml/urdf_reader.h"

namespace twinblocks::graph {
class Recording;
class Simulator;
class System;
}  // namespace twinblocks::graph

namespace twinblocks::cli {

/// Exit statuses of every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitSimulationFailed = 3;
/// A file could not be written (a full disk, a read-only folder): one line names it and why.
inline constexpr int kExitWriteFailed = 4;

/// A user-input problem the command reports as one line and exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `run --report FILE.html` (report_command.cc): records the run's scene through the
/// simulator's row callback, and writes the HTML report after the run.
class RunReport {
 public:
  /// @throws UsageError when `path` cannot be written, or twinblocks was built without the
  ///   HTML report.
  RunReport(const std::string& path, const graph::System& system);
  ~RunReport();
  void Attach(graph::Simulator* sim);
  /// Writes the page; false (after saying why on stderr) when it cannot.
  bool Write(const std::string& title, const graph::Recording& recording, bool quiet);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// How a .urdf model file is read (`--actuation`, `--mesh-path`; docs/urdf.md).
struct UrdfArgs {
  std::string actuation = "none";  ///< none, torque or motion
  std::vector<std::string> mesh_paths;
};

/// The importer's options from the command line's. @throws UsageError for a bad --actuation.
xml::UrdfImportOptions UrdfOptionsFrom(const UrdfArgs& args);

/// Reads a model file (XML, or URDF imported with `urdf`) and applies `--set NAME=VALUE`
/// overrides: a NAME without a dot is a model variable; `path.param` is a block parameter.
/// @throws graph::ModelError, UsageError
graph::Model LoadModel(const std::string& path, const std::vector<std::string>& sets,
                       const UrdfArgs& urdf = {});

/// The run of `system` with `settings`. Settings the simulator refuses (a step that is not
/// positive, results that could not be held) came from the model file, or from options that
/// passed their own checks combined with it: the error names the file, at its <simulation>
/// when it has one (`path` when it has none).
/// @throws graph::ModelError
std::unique_ptr<graph::Simulator> MakeSimulator(const graph::Model& model, const std::string& path,
                                                const graph::System& system,
                                                const graph::SimulationSettingsValues& settings);

/// The check of an option that must be a positive, finite number (a step, a tolerance):
/// "expected a positive number, got 'TEXT'".
const CLI::Validator& PositiveNumber();
/// The check of an option that must be a finite decimal number (a time): not "0x10", "inf".
const CLI::Validator& FiniteNumber();

/// `twinblocks run MODEL -o OUTPUT [--quiet]` and nothing else: for a command that writes a
/// model and runs it (grasp). Returns the exit status; throws as `run` does.
int RunWrittenModel(const std::string& model, const std::string& output, bool quiet);

/// Each command adds its subcommand to `app` and returns the function that runs it after
/// parsing (returning the exit status).
using Runner = std::function<int()>;
Runner AddRunCommand(CLI::App& app);
Runner AddCheckCommand(CLI::App& app);
Runner AddBlocksCommand(CLI::App& app);
Runner AddGraphCommand(CLI::App& app);
Runner AddPlotCommand(CLI::App& app);
Runner AddSweepCommand(CLI::App& app);
Runner AddImportCommand(CLI::App& app);
Runner AddReportCommand(CLI::App& app);
Runner AddSettingsCommand(CLI::App& app);
Runner AddGraspCommand(CLI::App& app);

}  // namespace twinblocks::cli
