#pragma once

// The HTML report (docs/report.md): one self-contained page that opens offline, with a chart
// of every logged signal and, for a run with mechanisms, a 3D playback of every Solid's motion
// with its contacts. uPlot (charts) and three.js (3D) are bundled into the page at build time
// from the npm packages web/package-lock.json pins; the page loads nothing from anywhere.
//
// The data goes into the page as one JSON object (ReportDataJson): numbers in bulk as
// little-endian base64 arrays (time in float64; signals, poses and contacts in float32), runs
// longer than the limits of ReportOptions thinned to evenly spaced rows (the first and last
// kept).

#include <string>
#include <vector>

#include "report/scene_recorder.h"
#include "runtime/results.h"

namespace twinblocks::report {

/// One set of results on the page.
struct ReportRun {
  std::string label;                            ///< its heading: the model's name, a file name
  const graph::Recording* recording = nullptr;  ///< required
  /// The scene of the same run (rows shared with `recording`), or nullptr: plots only.
  const SceneRecorder* scene = nullptr;
};

struct ReportOptions {
  std::string title = "twinblocks report";
  /// Rows per run the charts get at most (uPlot draws 10^4 points per line smoothly).
  int max_plot_rows = 10000;
  /// Frames the 3D playback gets at most.
  int max_frames = 2000;
};

/// The rows kept of `num_rows` when at most `max_rows` may be: every one, or evenly spaced
/// ones from the first to the last.
/// @throws std::invalid_argument when max_rows < 2.
std::vector<int> SelectRows(int num_rows, int max_rows);

/// The page's data as JSON (its layout: docs/report.md, "What the page holds").
/// @throws std::invalid_argument when a run has no recording, or a scene with fewer rows than
///   its recording, or the options' limits are < 2.
std::string ReportDataJson(const std::vector<ReportRun>& runs, const ReportOptions& options);

/// The whole page: the bundled scripts and styles, and the data.
/// @throws std::invalid_argument as ReportDataJson.
std::string HtmlReport(const std::vector<ReportRun>& runs, const ReportOptions& options);

/// Writes HtmlReport to `path`.
/// @throws std::runtime_error when the file cannot be written; std::invalid_argument as
///   ReportDataJson.
void WriteHtmlReport(const std::vector<ReportRun>& runs, const ReportOptions& options,
                     const std::string& path);

/// Decodes base64 (the page's arrays), for tests and tools that read the data back.
/// @throws std::invalid_argument for a character outside the base64 alphabet.
std::vector<unsigned char> DecodeBase64(const std::string& text);

}  // namespace twinblocks::report
