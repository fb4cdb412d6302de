// `twinblocks plot RESULTS SIGNAL... -o FILE`: a line chart of signals of a results file (CSV or
// .mat written by `twinblocks run`) as SVG or PNG, for quick looks and for documents' figures.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "common/suggest.h"
#include "io/results_reader.h"
#include "io/svg_plot.h"
#include "io/svg_raster.h"

namespace twinblocks::cli {

namespace {

struct PlotArgs {
  std::string results;
  std::vector<std::string> signals;
  std::string output;
  std::string title;
  std::string xlabel = "time (s)";
  std::string ylabel;
  bool log_y = false;
  int width = 800;
  int height = 480;
  double scale = 1.0;
  bool quiet = false;
};

// `*` any run of characters, `?` one character; everything else literally ("q[*]").
bool GlobMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string ListNames(const std::vector<std::string>& names) {
  constexpr size_t kMaxListed = 12;
  std::string list;
  for (size_t i = 0; i < names.size() && i < kMaxListed; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > kMaxListed) list += ", ... (" + std::to_string(names.size()) + " in all)";
  return list.empty() ? "none" : list;
}

// The columns a SIGNAL argument names: a column, every element of a vector signal, or every
// column a pattern matches. @throws UsageError naming a close match when there is none.
std::vector<int> ColumnsOf(const graph::ResultsTable& table, const std::string& signal) {
  std::vector<int> columns;
  if (signal.find_first_of("*?") != std::string::npos) {
    for (int c = 0; c < table.num_columns(); ++c) {
      if (GlobMatch(signal, table.columns[c])) columns.push_back(c);
    }
  } else {
    columns = table.SignalColumns(signal);
  }
  if (columns.empty()) {
    std::vector<std::string> valid = table.SignalNames();
    for (const std::string& c : table.columns) valid.push_back(c);
    throw UsageError("no signal '" + signal + "' in " + table.file +
                     graph::SuggestionFor(signal, valid) +
                     "; its signals: " + ListNames(table.SignalNames()));
  }
  return columns;
}

int Plot(const PlotArgs& args) {
  const std::string output =
      args.output.empty() ? std::filesystem::path(args.results).replace_extension(".svg").string()
                          : args.output;
  const std::string ext = LowerExtension(output);
  // Checked before reading: a wrong -o should not wait for a large results file.
  if (ext != ".svg" && ext != ".png") {
    throw UsageError("-o '" + output + "': unknown plot format '" + ext +
                     "', expected a file name ending in .svg or .png");
  }
  if (ext == ".png" && !graph::PngSupported()) {
    throw UsageError("cannot write '" + output +
                     "': twinblocks was built without PNG support (librsvg, cairo)");
  }
  const graph::ResultsTable table = graph::ReadResults(args.results);
  std::vector<graph::PlotSeries> series;
  for (const std::string& signal : args.signals) {
    for (int c : ColumnsOf(table, signal)) {
      series.push_back({table.columns[c], table.time, table.values[c]});
    }
  }
  graph::PlotOptions options;
  options.title = args.title;
  options.xlabel = args.xlabel;
  options.ylabel = args.ylabel;
  options.log_y = args.log_y;
  options.width = args.width;
  options.height = args.height;
  const std::string svg = graph::RenderSvgPlot(series, options);
  WriteOutputFile(output, ext == ".png" ? graph::SvgToPng(svg, args.scale) : svg);
  if (!args.quiet && output != "-") std::printf("wrote %s\n", output.c_str());
  return kExitOk;
}

}  // namespace

Runner AddPlotCommand(CLI::App& app) {
  auto args = std::make_shared<PlotArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plot", "Draw signals of a results file (.csv or .mat) as an SVG or PNG line chart");
  cmd->add_option("results", args->results, "Results file written by twinblocks run")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("signals", args->signals,
                  "Signals to draw: a column (x, q[2]), a vector signal (q: every element), "
                  "or a pattern with * and ? (arm/*.q)")
      ->required();
  cmd->add_option("-o,--output", args->output,
                  "Picture file, .svg or .png by extension (default: the results file name "
                  "with .svg); '-' for stdout");
  cmd->add_option("--title", args->title, "Title above the chart");
  cmd->add_option("--xlabel", args->xlabel, "Label of the time axis")->capture_default_str();
  cmd->add_option("--ylabel", args->ylabel, "Label of the value axis");
  cmd->add_flag("--log-y", args->log_y, "|y| on a logarithmic axis (zeros left out)");
  cmd->add_option("--width", args->width, "Width, px")
      ->check(CLI::Range(200, 10000))
      ->capture_default_str();
  cmd->add_option("--height", args->height, "Height, px")
      ->check(CLI::Range(150, 10000))
      ->capture_default_str();
  cmd->add_option("--scale", args->scale, "PNG only: pixels per SVG px (2 for sharp print)")
      ->check(CLI::Range(0.1, 10.0))
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", args->quiet, "No 'wrote FILE' line");
  return [args] { return Plot(*args); };
}

}  // namespace twinblocks::cli
