// `twinblocks report RESULTS.csv... -o out.html`: the HTML report of results already written,
// and `run --report`'s recorder and writer (docs/report.md).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/output_file.h"
#include "io/results_reader.h"
#include "runtime/results.h"
#include "runtime/simulator.h"
#include "runtime/system.h"

#ifdef TWINBLOCKS_REPORT
#include "report/html_report.h"
#include "report/scene_recorder.h"
#endif

namespace twinblocks::cli {

namespace {

constexpr const char* kNotBuilt =
    "twinblocks was built without the HTML report (it needs node and npm at build time; "
    "see docs/report.md)";

// Makes the report's folder and finds a file it cannot write before any work is spent on it.
void ProbeWritable(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ignored;
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  try {
    graph::ProbeWritable(path);
  } catch (const graph::OutputFileError& e) {
    throw UsageError("cannot write the report '" + path + "': " + e.reason());
  }
}

struct ReportArgs {
  std::vector<std::string> results;
  std::string output;
  std::string title;
  int max_rows = 10000;
};

int Report(const ReportArgs& args) {
#ifdef TWINBLOCKS_REPORT
  if (args.max_rows < 2) {
    throw UsageError("--max-rows must be at least 2, got " + std::to_string(args.max_rows));
  }
  ProbeWritable(args.output);
  std::vector<graph::Recording> recordings;
  recordings.reserve(args.results.size());
  for (const std::string& path : args.results) {
    try {
      recordings.push_back(graph::ToRecording(graph::ReadResults(path)));
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  std::vector<report::ReportRun> runs;
  for (size_t i = 0; i < recordings.size(); ++i) {
    runs.push_back(
        {std::filesystem::path(args.results[i]).filename().string(), &recordings[i], nullptr});
  }
  report::ReportOptions options;
  options.title = args.title.empty() ? "twinblocks results" : args.title;
  options.max_plot_rows = args.max_rows;
  report::WriteHtmlReport(runs, options, args.output);
  std::printf("wrote %s\n", args.output.c_str());
  return kExitOk;
#else
  throw UsageError(kNotBuilt);
#endif
}

}  // namespace

#ifdef TWINBLOCKS_REPORT
struct RunReport::Impl {
  std::string path;
  report::SceneRecorder scene;
};
#else
struct RunReport::Impl {};
#endif

RunReport::RunReport(const std::string& path, const graph::System& system) {
#ifdef TWINBLOCKS_REPORT
  ProbeWritable(path);
  impl_ = std::make_unique<Impl>(Impl{path, report::SceneRecorder(system)});
#else
  throw UsageError(kNotBuilt);
#endif
}

RunReport::~RunReport() = default;

void RunReport::Attach(graph::Simulator* sim) {
#ifdef TWINBLOCKS_REPORT
  impl_->scene.Attach(sim);
#endif
}

bool RunReport::Write(const std::string& title, const graph::Recording& recording, bool quiet) {
#ifdef TWINBLOCKS_REPORT
  try {
    report::ReportOptions options;
    options.title = title;
    report::WriteHtmlReport({{title, &recording, &impl_->scene}}, options, impl_->path);
    if (!quiet) std::printf("wrote %s\n", impl_->path.c_str());
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twinblocks: %s\n", e.what());
    return false;
  }
#else
  return false;
#endif
}

Runner AddReportCommand(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write an HTML report (charts of every signal) of results files (.csv, .mat)");
  cmd->add_option("results", args->results,
                  "Results files written by `twinblocks run` (.csv or .mat)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", args->output, "The report's file (.html)")->required();
  cmd->add_option("--title", args->title, "The page's title (default: \"twinblocks results\")");
  cmd->add_option("--max-rows", args->max_rows,
                  "Rows per results file the charts get at most (evenly spaced; default 10000)");
  return [args] { return Report(*args); };
}

}  // namespace twinblocks::cli
