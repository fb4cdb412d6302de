#pragma once

// Running a sweep: each run applies its values to its own copy of the Model, compiles it and
// simulates it. A run that does not compile, or fails during the simulation, becomes a row
// that says so (status, time reached, error): it never ends the sweep. Runs go to worker
// threads and, under MPI, to ranks (sweep_table.h gathers and writes them); each run's
// result depends only on the model, the plan and its index, so the table is the same bit for
// bit whatever the number of threads or ranks.
//
//   graph::Model model = xml::ReadModelFile("g2_power.xml");
//   sweep::SweepSpec spec;
//   spec.parameters.push_back(sweep::ParseSweepSetting("object.density=160,700,2300"));
//   const sweep::SweepPlan plan(spec);
//   sweep::SweepOptions options;
//   options.threads = 2;
//   options.plot_signals = {"object.position[2]"};
//   sweep::CheckSweep(model, plan, options);  // bad names, outputs, settings: throws
//   const std::vector<sweep::RunResult> rows = sweep::RunSweep(model, plan, options);
//   sweep::WriteSummaryTable(plan, rows, "summary.csv");

#include <atomic>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/summary.h"
#include "io/svg_plot.h"
#include "model/model.h"
#include "runtime/simulation_settings.h"
#include "runtime/system.h"
#include "sweep/sweep_plan.h"

namespace twinblocks::sweep {

/// Run settings a sweep applies to every run, over the model's `<simulation>`; unset fields
/// keep the model's value.
struct RunSettingsOverrides {
  /// The settings given, each with its value (of its setting's type), in the order given.
  std::vector<std::pair<const graph::SimulationSetting*, graph::SettingValue>> values;

  /// Adds the setting called `name` with `value`.
  /// @throws std::invalid_argument naming the settings when `name` is none of them.
  void Set(std::string_view name, graph::SettingValue value);

  /// `settings` with the given ones replaced.
  graph::SimulationSettingsValues ApplyTo(graph::SimulationSettingsValues settings) const;
};

/// How the runs of a sweep execute and what each keeps.
struct SweepOptions {
  /// Worker threads of this process (per MPI rank); at least 1.
  int threads = 1;
  /// This process runs the indices i with i % num_ranks == rank (MPI ranks; 0 and 1 alone).
  int rank = 0;
  int num_ranks = 1;
  /// When not empty, each run writes its logged signals to RUN_DIR/run_NNNN.csv (RunFileName).
  std::string run_dir;
  RunSettingsOverrides settings;
  /// Scalar outputs besides the model's `<summary>`s (the command line's --final SIGNAL,
  /// --max SIGNAL ...): in the table after the model's own.
  std::vector<graph::SummarySpec> outputs;
  /// Signals each run keeps whole for the overlay plots ("path.port" or "path.port[i]").
  std::vector<std::string> plot_signals;
  /// When set (the command line's Ctrl-C), the runs in progress stop after their step in
  /// progress (status failed, "interrupted at t = ..." with their results so far) and the
  /// runs not started are rows of status kNotRun. nullptr: the sweep runs to the end.
  const std::atomic<bool>* stop = nullptr;
};

/// How a run ended.
enum class RunStatus {
  kOk,        ///< simulated to t_end
  kFailed,    ///< the simulation stopped (numerical failure, block error): results up to then
  kInvalid,   ///< the model with this run's values does not compile: nothing ran
  kNotRun,    ///< the sweep was stopped (SweepOptions::stop) before the run started
  kTimedOut,  ///< the run exceeded its max_wall_time: results up to then
};

/// "ok", "failed", "invalid", "not run", "timed out".
std::string_view RunStatusName(RunStatus status);

/// One row of the sweep's table, and the series its plots draw.
struct RunResult {
  int index = 0;
  std::vector<std::string> values;  ///< the run's parameter values (SweepRun::values)
  RunStatus status = RunStatus::kOk;
  /// The time the run reached, s; NaN for an invalid run.
  double t_reached = std::numeric_limits<double>::quiet_NaN();
  /// "" when ok; otherwise one line: when and why it failed, or the compile error.
  std::string error;
  /// The model's summaries then the options' outputs, over the rows the run recorded (values
  /// NaN when it recorded none); empty for an invalid run.
  std::vector<graph::SummaryValue> summaries;
  /// Per entry of SweepOptions::plot_signals, its series (one per element of a vector
  /// signal), named after the signal; empty for an invalid run.
  std::vector<std::vector<graph::PlotSeries>> series;
  /// "" when the run's results file was written (or none was asked for); otherwise why not, in
  /// one line naming the file and the operating system's reason. The sweep stops there.
  std::string write_error;
  /// Wall time of the run, s: printed and written apart, never in the summary table (it would
  /// make tables of equal runs differ).
  double wall_seconds = 0.0;
};

/// Applies a run's values to `model`: a name without '.' sets the model variable (which must
/// exist), `block/path.param` the block's parameter.
/// @throws SweepError for an unknown variable; graph::ModelError for an unknown block or a
///   parameter the block does not have.
void ApplyRunValues(const std::vector<std::string>& names, const std::vector<std::string>& values,
                    graph::Model* model);

/// Checks, before any run, what would otherwise make every run fail alike: every parameter
/// name (applying its first value to a copy of `model`), the model as written compiling with
/// the outputs and plot signals, the run settings, the thread and rank counts, and that the
/// run directory can be made and written to.
/// @throws SweepError, graph::ModelError or std::invalid_argument saying what is wrong.
void CheckSweep(const graph::Model& model, const SweepPlan& plan, const SweepOptions& options);

/// Runs one run of the plan (on the calling thread). Never throws for a model the run's
/// values make invalid nor for a failing simulation: those are the row's status.
RunResult RunOne(const graph::Model& model, const SweepPlan& plan, int index,
                 const SweepOptions& options);

/// Runs this rank's runs of the plan on `options.threads` threads, each taking the next index
/// not yet taken, and returns their rows in index order. `on_done`, when given, is called
/// once per finished run, one call at a time (from the worker threads).
/// @pre CheckSweep passed.
std::vector<RunResult> RunSweep(const graph::Model& model, const SweepPlan& plan,
                                const SweepOptions& options,
                                const std::function<void(const RunResult&)>& on_done = {});

/// The indices this rank runs: i in [0, num_runs) with i % num_ranks == rank.
std::vector<int> RankIndices(int num_runs, int rank, int num_ranks);

/// "run_0003.csv": the run's index, zero-padded to at least 4 digits and to the digits of the
/// largest index, so that the files sort in run order.
std::string RunFileName(int index, int num_runs);

}  // namespace twinblocks::sweep
