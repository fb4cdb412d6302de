#pragma once

// Scalar results of a run: the `<summary>` elements of a model (the largest tracking error of
// each joint, a final position, an RMS current), computed from the recorded rows. `twinblocks
// run` prints them and writes them as CSV; a parameter sweep puts them in its table.

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "runtime/results.h"
#include "runtime/system.h"

namespace twinblocks::graph {

/// One scalar result: `op` of one element of one signal over the rows of a run.
struct SummaryValue {
  /// The signal as the summary names it ("arm/j1.q", "err.y[2]"); for a vector signal named
  /// without an index, one value per element, named "err.y[0]" ... "err.y[n-1]".
  std::string signal;
  SummaryOp op = SummaryOp::kMax;
  /// In the signal's unit (rms too). NaN when there are no rows, or when the signal is NaN
  /// at some row.
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string label;  ///< the summary's label, "" for none
};

/// `op` of column `column` of `recording` (0-based, not counting time) over all its rows:
/// - `kMax`, `kMin`, `kMaxAbs`: the largest value, the smallest, the largest |value|;
/// - `kFinal`: the value at the last row;
/// - `kMean`, `kRms`: (1/T) ∫ y dt and sqrt((1/T) ∫ y² dt) of the piecewise-linear signal
///   through the rows (the line a plot draws), T the time the rows span: the mean by the
///   trapezoidal rule, y² integrated exactly between rows ((a² + ab + b²) / 3 per step). Both
///   are exact for a signal linear in time between rows. Rows that span no time (one row)
///   give the plain mean and RMS of their values.
///
/// @returns NaN when there are no rows, or when the column is NaN at some row.
/// @throws std::logic_error when `column` is not a column of `recording`.
double SummarizeColumn(const Recording& recording, int column, SummaryOp op);

/// The values of `summaries` over the recording of a run of `system` (a whole run, or the
/// rows up to a failure): per summary in order, one value per signal, or one per element for
/// a vector signal named without an index.
///
/// @throws std::runtime_error when a signal is not in the recording (`system` was not compiled
///   from the model that holds these summaries, which logs their signals).
std::vector<SummaryValue> Summarize(const std::vector<SummarySpec>& summaries, const System& system,
                                    const Recording& recording);

/// Writes `values` as CSV to `path`: a header `signal,op,value,label`, then one row per value,
/// the value in the shortest form that reads back to the same double ("nan" for NaN), the
/// label quoted when it holds a comma, a quote or a line break.
///
/// @throws std::runtime_error when the file cannot be written.
void WriteSummaryCsv(const std::vector<SummaryValue>& values, const std::string& path);

}  // namespace twinblocks::graph
