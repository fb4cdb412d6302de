// `twinblocks sweep MODEL --set NAME=v1,v2,...`: many runs of one model, on threads and MPI
// ranks, into one summary table (sweep/ does the work; this file reads the command line,
// spreads the runs over ranks and reports).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/mpi_world.h"
#include "cli/settings_flags.h"
#include "cli/stop_on_signals.h"
#include "common/output_file.h"
#include "io/summary.h"
#include "model/model_error.h"
#include "solvers/integrator.h"
#include "sweep/sweep_plan.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_table.h"
#include "xml/model_reader.h"

namespace twinblocks::cli {

namespace {

struct SweepArgs {
  std::string model;
  std::vector<std::string> sets;
  bool grid = false;
  bool zip = false;
  int samples = 0;
  std::uint64_t seed = 0;
  int jobs = 1;
  std::string output_dir;
  std::vector<std::string> plots;
  /// Per summary op (graph::SummaryOp order), the signals given to --final, --max ...
  std::vector<std::vector<std::string>> outputs = std::vector<std::vector<std::string>>(6);
  SettingFlags settings;  ///< every run's settings: one flag per setting of the schema
  bool no_run_files = false;
  bool quiet = false;
};

constexpr graph::SummaryOp kOps[] = {graph::SummaryOp::kMax,    graph::SummaryOp::kMin,
                                     graph::SummaryOp::kMaxAbs, graph::SummaryOp::kFinal,
                                     graph::SummaryOp::kMean,   graph::SummaryOp::kRms};

// "--max-abs" for max_abs.
std::string OptionName(graph::SummaryOp op) {
  std::string name(graph::SummaryOpName(op));
  for (char& c : name) c = c == '_' ? '-' : c;
  return "--" + name;
}

std::string DefaultOutputDir(const std::string& model) {
  return std::filesystem::path(model).stem().string() + "_sweep";
}

// Everything a run needs, built from the command line the same way on every rank.
struct Prepared {
  graph::Model model;
  std::optional<sweep::SweepPlan> plan;
  sweep::SweepOptions options;
  std::string dir;
};

Prepared Prepare(const SweepArgs& args, const MpiWorld& world) {
  if (args.grid && args.zip) throw UsageError("--grid and --zip exclude each other");
  sweep::SweepSpec spec;
  for (const std::string& set : args.sets) spec.parameters.push_back(sweep::ParseSweepSetting(set));
  spec.combination = args.zip ? sweep::Combination::kZip : sweep::Combination::kGrid;
  spec.samples = args.samples;
  spec.seed = args.seed;
  Prepared p;
  p.plan.emplace(std::move(spec));
  p.model = xml::ReadModelFile(args.model);
  p.dir = args.output_dir.empty() ? DefaultOutputDir(args.model) : args.output_dir;
  p.options.threads = args.jobs;
  p.options.rank = world.rank();
  p.options.num_ranks = world.size();
  for (const auto& [setting, value] : args.settings.Read()) {
    p.options.settings.values.emplace_back(setting, value);
  }
  p.options.plot_signals = args.plots;
  if (!args.no_run_files) p.options.run_dir = p.dir;
  for (size_t k = 0; k < std::size(kOps); ++k) {
    for (const std::string& signal : args.outputs[k]) {
      graph::SummarySpec s;
      s.signals = {signal};
      s.op = kOps[k];
      s.where = graph::SourceLocation{OptionName(kOps[k]), 0};
      p.options.outputs.push_back(std::move(s));
    }
  }
  sweep::CheckSweep(p.model, *p.plan, p.options);
  if (world.rank() == 0) {
    std::error_code ignored;
    std::filesystem::create_directories(p.dir, ignored);
    const std::string summary = (std::filesystem::path(p.dir) / "summary.csv").string();
    if (std::FILE* f = std::fopen(summary.c_str(), "a")) {
      std::fclose(f);
    } else {
      throw UsageError("cannot write the summary to '" + summary + "'");
    }
  }
  return p;
}

// The one line a bad command line gets, as main() prints it.
void PrintBadInput(const std::exception& e) {
  if (dynamic_cast<const graph::ModelError*>(&e) != nullptr) {
    std::fprintf(stderr, "%s\n", e.what());
  } else {
    std::fprintf(stderr, "twinblocks: %s\n", graph::OneLine(e.what()).c_str());
  }
}

void PrintRun(const sweep::SweepPlan& plan, const sweep::RunResult& r, int rank, int ranks) {
  std::string where = ranks > 1 ? " [rank " + std::to_string(rank) + "]" : "";
  std::printf("run %d/%d%s: %s: %s", r.index + 1, plan.num_runs(), where.c_str(),
              plan.Label(sweep::SweepRun{r.index, r.values}).c_str(),
              std::string(sweep::RunStatusName(r.status)).c_str());
  if (r.status != sweep::RunStatus::kInvalid && r.status != sweep::RunStatus::kNotRun) {
    std::printf(", t = %.6g s", r.t_reached);
  }
  std::printf(", %.3g s wall\n", r.wall_seconds);
  std::fflush(stdout);
}

// Rank 0's part once every row is in: the table, the plots, the report. Returns the status.
int Report(const SweepArgs& args, const Prepared& p, const std::vector<sweep::RunResult>& rows) {
  const std::filesystem::path dir(p.dir);
  const std::string summary = (dir / "summary.csv").string();
  sweep::WriteSummaryTable(*p.plan, rows, summary);
  sweep::WriteTimings(rows, (dir / "timings.csv").string());
  std::vector<std::string> plots;
  for (size_t k = 0; k < args.plots.size(); ++k) {
    const std::string path = (dir / sweep::PlotFileName(args.plots[k])).string();
    const std::string title =
        p.model.name + ": " + args.plots[k] + ", " + std::to_string(p.plan->num_runs()) + " runs";
    sweep::WriteSweepPlot(*p.plan, rows, static_cast<int>(k), args.plots[k], title, path);
    plots.push_back(path);
  }
  int ok = 0, failed = 0, invalid = 0, not_run = 0, timed_out = 0;
  double wall = 0.0;
  const sweep::RunResult* write_failure = nullptr;
  for (const sweep::RunResult& r : rows) {
    if (!r.write_error.empty() && write_failure == nullptr) write_failure = &r;
  }
  for (const sweep::RunResult& r : rows) {
    wall += r.wall_seconds;
    if (r.status == sweep::RunStatus::kOk) ++ok;
    if (r.status == sweep::RunStatus::kFailed) ++failed;
    if (r.status == sweep::RunStatus::kInvalid) ++invalid;
    if (r.status == sweep::RunStatus::kNotRun) ++not_run;
    if (r.status == sweep::RunStatus::kTimedOut) ++timed_out;
    // After a failed write the one line of that failure says it all.
    if (r.status != sweep::RunStatus::kOk && r.status != sweep::RunStatus::kNotRun &&
        write_failure == nullptr) {
      std::fprintf(stderr, "run %d (%s) %s: %s\n", r.index,
                   p.plan->Label(sweep::SweepRun{r.index, r.values}).c_str(),
                   std::string(sweep::RunStatusName(r.status)).c_str(), r.error.c_str());
    }
  }
  std::printf("%s: %d runs: %d ok, %d failed, %d invalid", p.model.name.c_str(), p.plan->num_runs(),
              ok, failed, invalid);
  if (timed_out > 0) std::printf(", %d timed out (max_wall_time)", timed_out);
  if (not_run > 0) std::printf(", %d not run (interrupted)", not_run);
  std::printf(" (%.3g s of run time)\n", wall);
  std::printf("summary: %s\n", summary.c_str());
  if (!p.options.run_dir.empty()) {
    std::printf("runs: %s/run_*.csv (the runs that compiled)\n", p.dir.c_str());
  }
  for (const std::string& path : plots) std::printf("plot: %s\n", path.c_str());
  if (write_failure != nullptr) {
    std::fprintf(
        stderr,
        "twinblocks: run %d: %s (the sweep stopped there; summary.csv has the runs that ran)\n",
        write_failure->index, write_failure->write_error.c_str());
    return kExitWriteFailed;
  }
  return ok == p.plan->num_runs() ? kExitOk : kExitSimulationFailed;
}

int Sweep(const SweepArgs& args) {
  MpiWorld world;  // before anything can fail, so that every rank leaves through MPI_Finalize
  Prepared p;
  std::optional<std::string> problem;
  try {
    p = Prepare(args, world);
  } catch (const std::exception& e) {
    problem = e.what();
    // Every rank reads the same command line and finds the same problem: rank 0 speaks for
    // all. Another rank speaks only of a problem rank 0 did not have (its file system, say).
    if (world.rank() == 0) PrintBadInput(e);
  }
  const bool root_ok = world.BroadcastFromRoot(problem ? 0 : 1) == 1;
  if (problem && world.rank() != 0 && root_ok) {
    std::fprintf(stderr, "[rank %d] ", world.rank());
    std::fprintf(stderr, "twinblocks: %s\n", graph::OneLine(*problem).c_str());
  }
  if (!world.AllOk(!problem)) return kExitBadInput;

  // Ctrl-C: the runs in progress stop with their results so far, the others are not
  // started, and the table, plots and run files of what ran are still written.
  std::vector<sweep::RunResult> rows;
  int stopped_by = 0;
  {
    const StopOnSignals stop_on_signals;
    p.options.stop = stop_on_signals.flag();
    rows = sweep::RunSweep(p.model, *p.plan, p.options, [&](const sweep::RunResult& r) {
      if (!args.quiet) PrintRun(*p.plan, r, world.rank(), world.size());
    });
    p.options.stop = nullptr;
    stopped_by = stop_on_signals.signal_number();
  }
  const std::vector<std::string> parts = world.GatherToRoot(sweep::EncodeRunResults(rows));
  int status = kExitOk;
  if (world.rank() == 0) {
    try {
      std::vector<sweep::RunResult> all;
      for (const std::string& part : parts) {
        std::vector<sweep::RunResult> some = sweep::DecodeRunResults(part);
        for (sweep::RunResult& r : some) all.push_back(std::move(r));
      }
      status = Report(args, p, all);
      if (stopped_by != 0) {
        std::fprintf(stderr, "%s: interrupted; the summary covers the runs that ran\n",
                     args.model.c_str());
        status = ExitStatusForSignal(stopped_by);
      }
    } catch (const graph::OutputFileError& e) {
      std::fprintf(stderr, "twinblocks: %s\n", graph::ReadableLine(e.what()).c_str());
      status = e.opened() ? kExitWriteFailed : kExitBadInput;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "twinblocks: %s\n", graph::ReadableLine(e.what()).c_str());
      status = kExitBadInput;
    }
  }
  return world.BroadcastFromRoot(status);
}

}  // namespace

Runner AddSweepCommand(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run a model over parameter values (grid, zip or Monte Carlo) on threads and MPI ranks; "
      "write one results file per run and a summary table");
  cmd->add_option("model", args->model, "Model file (.xml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", args->sets,
                  "NAME=v1,v2,... or NAME=uniform(a,b) | normal(mu,sigma) | "
                  "lognormal(mu,sigma): a model variable or block/path.param and its values; "
                  "repeatable")
      ->required();
  CLI::Option* grid =
      cmd->add_flag("--grid", args->grid, "Every combination of the lists (the default)");
  cmd->add_flag("--zip", args->zip, "Combine the lists element by element (equal lengths)")
      ->excludes(grid);
  cmd->add_option("--samples", args->samples,
                  "Monte Carlo: runs per fixed combination, each drawing the distributions anew");
  // Checked as text: CLI11 would read "-1" into an unsigned seed as 2^64 - 1.
  cmd->add_option("--seed", args->seed,
                  "Seed of the draws (run i draws from a generator seeded with seed and i)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (!text.empty() && text.size() <= 19 &&
                text.find_first_not_of("0123456789") == std::string::npos) {
              return {};
            }
            return "expected a whole number from 0 to 9999999999999999999, got '" + text + "'";
          },
          "SEED"));
  cmd->add_option("-j,--jobs", args->jobs, "Worker threads (per MPI rank)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("-o,--output-dir", args->output_dir,
                  "Directory of the summary, plots and run files; default: MODEL_sweep "
                  "(the model file's name), in the current directory");
  cmd->add_option("--plot", args->plots,
                  "Overlay this signal of every run in DIR/plot_SIGNAL.svg (path.port or "
                  "path.port[i]); repeatable");
  for (size_t k = 0; k < std::size(kOps); ++k) {
    cmd->add_option(OptionName(kOps[k]), args->outputs[k],
                    "Add a summary column: the " + std::string(graph::SummaryOpName(kOps[k])) +
                        " of this signal (path.port or path.port[i]); repeatable");
  }
  args->settings.AddTo(cmd);
  cmd->add_flag("--no-run-files", args->no_run_files,
                "Do not write DIR/run_NNNN.csv (the summary and plots are still written)");
  cmd->add_flag("--quiet,-q", args->quiet, "No line per finished run");
  return [args] { return Sweep(*args); };
}

}  // namespace twinblocks::cli
