#pragma once

#include <string>
#include <vector>

#include "runtime/system.h"

namespace twinblocks::graph {

/// The logged signals of a run: a time column and one column per signal element, row-major.
/// Memory for the expected number of rows is reserved before the run so that recording
/// inside the step loop does not allocate.
class Recording {
 public:
  Recording() = default;
  explicit Recording(const std::vector<LoggedSignal>& signals);

  /// Column names after "time": `name`, or `name[0]` ... `name[n-1]` for a signal of width n.
  const std::vector<std::string>& columns() const { return columns_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// The logged signals, in column order: signal i holds `width` columns after those of the
  /// signals before it (`offset` is into the simulator's signal buffer, not a column).
  const std::vector<LoggedSignal>& signals() const { return signals_; }
  int num_rows() const { return static_cast<int>(time_.size()); }
  double time(int row) const { return time_[row]; }
  /// Value of column `col` (0-based, not counting time) at `row`.
  double value(int row, int col) const { return values_[row * columns_.size() + col]; }
  /// Column index of a name ("x", "x[1]"), -1 when absent.
  int FindColumn(const std::string& name) const;

  void Reserve(int rows);
  /// Appends a row read from the signal buffer.
  void Append(double t, const double* signals);
  /// Keeps the first `rows` rows (Simulator::RestoreState). Keeps the memory reserved.
  void Truncate(int rows);

  /// Writes CSV: header `time,<columns>`, then one row per record, numbers in the shortest
  /// form that reads back to the same double.
  /// @throws OutputFileError (common/output_file.h) when it cannot write: a file that fails part
  ///   way is cut back to its last whole row.
  void WriteCsv(const std::string& path) const;

 private:
  void WriteCsvRows(const std::string& path) const;

  std::vector<std::string> columns_;
  std::vector<LoggedSignal> signals_;
  std::vector<double> time_;
  std::vector<double> values_;
};

/// A CSV field: `text` as it is, or quoted (quotes doubled) when it holds a comma, a quote or
/// a line break.
std::string CsvField(const std::string& text);

}  // namespace twinblocks::graph
