#pragma once

// Line charts of simulation results as standalone SVG files: the figures an experiment reports
// (joint positions, velocities, tracking errors), written by `twinblocks run` from a model's
// `<plot>` elements. No dependencies: the SVG is built as text, so a fresh machine needs
// neither Python nor gnuplot to see a run's results.

#include <string>
#include <vector>

#include "model/model.h"
#include "runtime/results.h"
#include "runtime/system.h"

namespace twinblocks::graph {

/// One line of a chart: y(t), with NaN where the signal has no value (a gap in the line).
struct PlotSeries {
  std::string name;       ///< legend text
  std::vector<double> t;  ///< time (s), non-decreasing, same size as y
  std::vector<double> y;
};

/// How a chart looks.
struct PlotOptions {
  std::string title;
  std::string xlabel = "time (s)";
  std::string ylabel;
  /// |y| on a logarithmic axis; zeros (and NaN) are left out of the line. For tracking
  /// errors, whose size spans orders of magnitude.
  bool log_y = false;
  int width = 800;  ///< px
  int height = 480;
  /// At most about this many points per series are drawn (min/max bucketing): a 40001-row
  /// run gives a file of tens of kilobytes that still shows every peak.
  int max_points = 2000;
};

/// The ticks of one axis: positions and their labels, and the axis range they span.
struct AxisTicks {
  double lo = 0.0;  ///< axis range (for a log axis, of log10 of the values)
  double hi = 1.0;
  std::vector<double> values;  ///< tick positions, in the axis' coordinate (log10 for log axes)
  std::vector<std::string> labels;
};

/// Ticks at 1, 2 or 5 times a power of ten, about `target` of them, over a range widened to
/// whole steps. A range of one value (a constant signal) is widened around it. Labels use
/// plain decimals, or the shortest scientific form ("2e-14", "1.5e-14") for very small or
/// very large values.
AxisTicks LinearTicks(double lo, double hi, int target = 6);

/// Ticks at powers of ten for positive values in [lo, hi] (every n-th decade when there are
/// many), over whole decades; labels "0.01", "1", "1000", or "1e-14" beyond four decades
/// from 1.
AxisTicks LogTicks(double lo, double hi, int target = 6);

/// Indices of the points to draw of y(0..n-1) so that at most about `max_points` remain: the
/// samples are cut into buckets and each keeps its smallest and largest value (in time order),
/// so that narrow peaks survive. NaN entries split the series into runs, each decimated on its
/// own with its first and last point kept; the NaNs themselves are not returned.
/// @returns the runs of indices, one vector per run of finite values.
std::vector<std::vector<int>> DecimateMinMax(const std::vector<double>& y, int max_points);

/// The chart as SVG text: one `<g class="series">` per series holding one `<polyline>` per
/// run of finite values (so one polyline for a series without gaps), axes with ticks, labels,
/// a title and a legend.
/// @throws std::logic_error when a series' t and y differ in size.
std::string RenderSvgPlot(const std::vector<PlotSeries>& series, const PlotOptions& options);

/// The series a `<plot>` names, read from the recording of a run of `system`: one per signal,
/// or one per element for a vector signal named without an index.
/// @throws std::runtime_error when a signal is not in the recording (the model was compiled
///   without the plot).
std::vector<PlotSeries> PlotSeriesFromRecording(const PlotSpec& plot, const System& system,
                                                const Recording& recording);

/// Renders the plot of a run and writes it to `path`.
/// @throws std::runtime_error when a signal is missing or the file cannot be written.
void WritePlotFile(const PlotSpec& plot, const System& system, const Recording& recording,
                   const std::string& path);

}  // namespace twinblocks::graph
