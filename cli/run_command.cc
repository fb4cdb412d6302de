// `twinblocks run MODEL`: compile, simulate, write the logged signals as CSV or MATLAB .mat.
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/settings_flags.h"
#include "cli/stop_on_signals.h"
#include "common/number_text.h"
#include "common/output_file.h"
#include "compiler/compile.h"
#include "io/mat_writer.h"
#include "io/summary.h"
#include "io/svg_plot.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "solvers/integrator.h"

namespace twinblocks::cli {

const CLI::Validator& PositiveNumber() {
  // CLI11's own PositiveNumber names the whole range of doubles in its message.
  static const CLI::Validator check(
      [](std::string& text) -> std::string {
        const std::optional<double> v = blocks::ParseDecimal(text);
        if (v && *v > 0.0) return {};
        return "expected a positive number, got '" + text + "'";
      },
      "POSITIVE");
  return check;
}

const CLI::Validator& FiniteNumber() {
  // CLI11 alone reads "0x10" as 16 and takes "inf" and "nan".
  static const CLI::Validator check(
      [](std::string& text) -> std::string {
        if (blocks::ParseDecimal(text)) return {};
        return "expected a finite decimal number, got '" + text + "'";
      },
      "NUMBER");
  return check;
}

namespace {

struct RunArgs {
  std::string model;
  SettingFlags settings;  ///< --solver, --rtol ...: one per setting of the schema
  std::vector<std::string> sets;
  UrdfArgs urdf;
  std::vector<std::string> logs;
  std::string output;
  std::string report;  ///< --report: the HTML report's file, "" for none
  bool quiet = false;
  bool no_plots = false;
  bool no_summary = false;
};

std::string DefaultOutput(const std::string& model) {
  return std::filesystem::path(model).stem().string() + ".csv";
}

enum class ResultsFormat { kCsv, kMat };

// The results format named by the extension of -o (either case); a name without one
// (/dev/null, /dev/stdout, "results") gets CSV, as before there was a choice. @throws
// UsageError for any other extension, and for .mat in a build without libmatio or with its
// plugin missing.
ResultsFormat FormatOf(const std::string& output) {
  std::string ext = std::filesystem::path(output).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext.empty() || ext == ".csv") return ResultsFormat::kCsv;
  if (ext == ".mat") {
    try {
      graph::PrepareWriteMat(output);
    } catch (const std::runtime_error& ex) {
      throw UsageError(ex.what());
    }
    return ResultsFormat::kMat;
  }
  throw UsageError("-o '" + output + "': unknown results format '" + ext +
                   "', expected a file name ending in .csv or .mat");
}

void WriteResults(const graph::Recording& recording, const std::string& output,
                  ResultsFormat format) {
  if (format == ResultsFormat::kMat) {
    graph::WriteMat(recording, output);
  } else {
    recording.WriteCsv(output);
  }
}

// Where a plot's file goes: next to the results file (the directory of -o, else the current
// directory), so that one run's CSV and figures stay together.
std::string PlotPath(const std::string& output, const std::string& file) {
  const std::filesystem::path dir = std::filesystem::path(output).parent_path();
  return (dir / file).lexically_normal().string();
}

// True when the two paths name one file (or would, once made): links followed.
bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  const std::filesystem::path pa = std::filesystem::weakly_canonical(a, ec);
  if (ec) return false;
  const std::filesystem::path pb = std::filesystem::weakly_canonical(b, ec);
  return !ec && pa == pb;
}

// The folder of a run's results: that of -o, or the current one.
std::string ResultsFolder(const std::string& output) {
  const std::filesystem::path dir = std::filesystem::path(output).parent_path();
  return dir.empty() ? "." : dir.string();
}

// Where the summary CSV goes: next to the results file, named after it ("out/run.csv" gives
// "out/run_summary.csv").
std::string SummaryPath(const std::string& output) {
  const std::filesystem::path path(output);
  return (path.parent_path() / (path.stem().string() + "_summary.csv")).string();
}

// Prints the model's summaries, one grep-able line per value, and writes them as CSV; false
// (after saying why on stderr) when the CSV cannot be written. After a failed run the values
// cover the rows recorded before the failure (or the interruption), which a note says first.
bool PrintSummaries(const graph::Model& model, const graph::System& system,
                    const graph::Recording& recording, const std::string& output, bool quiet,
                    bool failed, bool interrupted, bool write_csv) {
  std::vector<graph::SummaryValue> values;
  try {
    values = graph::Summarize(model.summaries, system, recording);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twinblocks: %s\n", e.what());
    return false;
  }
  const char* how = interrupted ? "was interrupted" : "failed";
  if (failed && recording.num_rows() > 0) {
    std::printf("note: the run %s; the summaries cover its results up to t = %.10g s\n", how,
                recording.time(recording.num_rows() - 1));
  } else if (failed) {
    std::printf("note: the run %s before its first row; the summaries are nan\n", how);
  }
  for (const graph::SummaryValue& v : values) {
    std::printf("summary: %s %s = %.6g", std::string(graph::SummaryOpName(v.op)).c_str(),
                v.signal.c_str(), v.value);
    if (!v.label.empty()) std::printf("  (%s)", v.label.c_str());
    std::printf("\n");
  }
  if (!write_csv) return true;
  const std::string path = SummaryPath(output);
  try {
    graph::WriteSummaryCsv(values, path);
    if (!quiet) std::printf("wrote %s\n", path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twinblocks: %s\n", e.what());
    return false;
  }
  return true;
}

// Writes the model's plots; false (after saying why on stderr) when one cannot be written.
bool WritePlots(const graph::Model& model, const graph::System& system,
                const graph::Recording& recording, const std::string& output, bool quiet) {
  bool ok = true;
  for (const graph::PlotSpec& plot : model.plots) {
    const std::string path = PlotPath(output, plot.file);
    try {
      graph::WritePlotFile(plot, system, recording, path);
      if (!quiet) std::printf("wrote %s\n", path.c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "twinblocks: %s\n", e.what());
      ok = false;
    }
  }
  return ok;
}

int Run(const RunArgs& args) {
  // A results file it cannot write is found before the model is read.
  const std::string output = args.output.empty() ? DefaultOutput(args.model) : args.output;
  if (SameFile(output, args.model)) {
    throw UsageError("-o '" + output + "' is the model file itself; the results would replace it");
  }
  const ResultsFormat format = FormatOf(output);
  graph::Model model = LoadModel(args.model, args.sets, args.urdf);
  graph::CompileOptions copt;
  copt.extra_logs = args.logs;
  const graph::System system = graph::Compile(model, copt);

  graph::SimulationSettingsValues settings = system.settings();
  settings = args.settings.ApplyTo(settings);

  // Settings the simulator refuses are found before any output file is made.
  const std::unique_ptr<graph::Simulator> made = MakeSimulator(model, args.model, system, settings);
  // Every output is checked before any is made: a bad --report leaves no empty results file.
  std::unique_ptr<RunReport> report;
  if (!args.report.empty()) report = std::make_unique<RunReport>(args.report, system);
  {
    // Find an unwritable output before spending the run on it; make its folder, as the demo
    // and most users expect of `-o out/run.csv`.
    const std::filesystem::path parent = std::filesystem::path(output).parent_path();
    std::error_code ignored;
    if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
    try {
      graph::ProbeWritable(output);
    } catch (const graph::OutputFileError& e) {
      throw UsageError("cannot write results to '" + output + "': " + e.reason());
    }
  }
  // Results to a device (-o /dev/null, /dev/stdout) have no folder: plots and the summary
  // file would land in /dev. They are not written; the summary lines are still printed.
  std::error_code device_ec;
  const std::filesystem::file_status results_status = std::filesystem::status(output, device_ec);
  const bool side_files = !std::filesystem::is_character_file(results_status) &&
                          !std::filesystem::is_block_file(results_status) &&
                          !std::filesystem::is_fifo(results_status) &&
                          !std::filesystem::is_socket(results_status);
  const bool no_plots = args.no_plots || !side_files;
  if (!no_plots) {
    for (const graph::PlotSpec& plot : model.plots) {
      const std::string path = PlotPath(output, plot.file);
      // A plot named like the run's results or summary would overwrite them with SVG.
      for (const std::string& taken : {output, SummaryPath(output)}) {
        if (SameFile(path, taken)) {
          throw UsageError(plot.where.ToString() + ": the plot '" + plot.file +
                           "' would overwrite the results file '" + taken + "'");
        }
      }
      // The file's name stays inside the results folder (the reader checks that); a link
      // already there must not lead the write out of it either.
      if (!IsInsideFolder(ResultsFolder(output), path)) {
        throw UsageError(plot.where.ToString() + ": the plot '" + plot.file +
                         "' would be written outside the results folder, through a link");
      }
      try {
        graph::ProbeWritable(path);
      } catch (const graph::OutputFileError& e) {
        throw UsageError(plot.where.ToString() + ": cannot write the plot '" + path +
                         "': " + e.reason());
      }
    }
  }
  if (!args.no_summary && side_files && !model.summaries.empty()) {
    const std::string path = SummaryPath(output);
    const std::string where = model.summaries.front().where.ToString();
    if (!IsInsideFolder(ResultsFolder(output), path)) {
      throw UsageError(where + ": the summary '" + path +
                       "' would be written outside the results folder, through a link");
    }
    try {
      graph::ProbeWritable(path);
    } catch (const graph::OutputFileError& e) {
      throw UsageError(where + ": cannot write the summary '" + path + "': " + e.reason());
    }
  }

  graph::Simulator& sim = *made;
  if (report) report->Attach(&sim);
  const bool tty = isatty(STDERR_FILENO) != 0;
  bool progress_shown = false;
  if (!args.quiet) {
    sim.SetProgressCallback(
        [&](const graph::Progress& p) {
          if (p.wall_seconds < 1.0) return;  // short runs stay silent
          // A slow run says why when the solver knows: stiffness under an explicit solver.
          const std::string stiff =
              std::isnan(p.stiff_since) ? "" : "; " + graph::StiffnessHint(p.stiff_since);
          std::fprintf(stderr, "%st = %.6g s (%.1f%%), %ld steps, real-time factor %.3g%s%s",
                       tty ? "\r" : "", p.t, 100.0 * p.fraction, p.steps,
                       (p.t - settings.t_start) / p.wall_seconds, stiff.c_str(),
                       tty ? "   " : "\n");
          progress_shown = true;
        },
        tty ? 0.25 : 2.0);
  }
  graph::SimulationOutcome outcome;
  int stopped_by = 0;
  {
    const StopOnSignals stop_on_signals;
    sim.SetStopRequest(stop_on_signals.flag());
    outcome = sim.Run();
    stopped_by = stop_on_signals.signal_number();
  }
  if (progress_shown && tty) std::fputc('\n', stderr);

  WriteResults(sim.recording(), output, format);
  const double simulated = outcome.t - settings.t_start;
  std::printf("%s: %s, t = [%g, %g] s\n", model.name.c_str(), settings.solver.c_str(),
              settings.t_start, outcome.t);
  std::printf("stats: %s\n", sim.stats().Summary(simulated).c_str());
  std::printf("results: %s (%d rows, %d signals)\n", output.c_str(), sim.recording().num_rows(),
              static_cast<int>(system.logged_signals().size()));
  if (outcome.stopped) {
    // Not a failure: the model ended its own run (a StopSimulation block), before t_end.
    std::printf("stopped: at t = %.10g s by block '%s' (%s)\n", outcome.t,
                outcome.stopped_by.c_str(), outcome.stopped_by_type.c_str());
  }
  if (system.logged_signals().empty()) {
    std::printf(
        "note: no signal is logged, so the results hold only time; add "
        "<log signal=\"block.port\"/> to the model or --log block.port\n");
  }
  // Also after a failure: the values and figures of the results so far show how it went wrong.
  const bool summary_ok = args.no_summary || model.summaries.empty() ||
                          PrintSummaries(model, system, sim.recording(), output, args.quiet,
                                         !outcome.ok, outcome.interrupted, side_files);
  const bool plots_ok = no_plots || WritePlots(model, system, sim.recording(), output, args.quiet);
  const bool report_ok = !report || report->Write(model.name, sim.recording(), args.quiet);
  if (!outcome.ok) {
    std::fprintf(stderr, "%s: %s (results up to t = %.10g s written to %s)\n", args.model.c_str(),
                 outcome.error.c_str(), outcome.t, output.c_str());
    return outcome.interrupted ? ExitStatusForSignal(stopped_by != 0 ? stopped_by : SIGINT)
                               : kExitSimulationFailed;
  }
  return plots_ok && summary_ok && report_ok ? kExitOk : kExitWriteFailed;
}

}  // namespace

int RunWrittenModel(const std::string& model, const std::string& output, bool quiet) {
  RunArgs args;
  args.model = model;
  args.output = output;
  args.quiet = quiet;
  return Run(args);
}

Runner AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Simulate a model and write its logged signals");
  cmd->add_option("model", args->model, "Model file (.xml, or a robot's .urdf)")
      ->required()
      ->check(CLI::ExistingFile);
  args->settings.AddTo(cmd);
  cmd->add_option("--set", args->sets,
                  "Override a model variable (NAME=VALUE) or a block parameter "
                  "(block/path.param=VALUE); repeatable");
  cmd->add_option("--log", args->logs, "Also log this signal (block/path.port); repeatable");
  cmd->add_option("--actuation", args->urdf.actuation,
                  "For a .urdf model: how its joints are driven, none (passive, the default), "
                  "torque or motion (docs/urdf.md)");
  cmd->add_option("--mesh-path", args->urdf.mesh_paths,
                  "For a .urdf model: directory in which package:// meshes are looked up; "
                  "repeatable");
  cmd->add_option("-o,--output", args->output,
                  "Results file, its format by extension: .csv, or .mat (MATLAB v5, one struct per "
                  "signal); default: the model file name with .csv, in the current directory");
  cmd->add_flag("--quiet,-q", args->quiet,
                "No progress line, no 'wrote' line per plot or summary file (the 'summary:' "
                "lines stay)");
  cmd->add_flag("--no-plots", args->no_plots,
                "Do not write the model's <plot>s (SVG, next to the results file)");
  cmd->add_option("--report", args->report,
                  "Also write an HTML report: charts of the logged signals and a 3D playback of "
                  "the Solids (one self-contained file, docs/report.md)");
  cmd->add_flag("--no-summary", args->no_summary,
                "Do not print the model's <summary>s nor write RESULTS_summary.csv");
  return [args] { return Run(*args); };
}

}  // namespace twinblocks::cli
