#pragma once

// Results files read back: the CSV and .mat files `twinblocks run` writes (runtime/results.h,
// io/mat_writer.h), for `twinblocks plot` and for scripts that look at a run afterwards.

#include <string>
#include <vector>

#include "runtime/results.h"

namespace twinblocks::graph {

/// The columns of a results file: time and one column per signal element, named as the CSV
/// header names them (`name`, or `name[0]` ... `name[n-1]` for a signal of width n).
struct ResultsTable {
  std::string file;                         ///< where it was read from, for messages
  std::vector<std::string> columns;         ///< after "time", in file order
  std::vector<double> time;                 ///< s, non-decreasing
  std::vector<std::vector<double>> values;  ///< values[c][r]: column c at time[r]

  int num_rows() const { return static_cast<int>(time.size()); }
  int num_columns() const { return static_cast<int>(columns.size()); }
  /// Index of column `name` ("x", "x[1]"), -1 when absent.
  int FindColumn(const std::string& name) const;
  /// The columns of signal `name`: {FindColumn(name)} when there is such a column, else the
  /// element columns `name[0]`, `name[1]`, ... of a vector signal, in element order; empty
  /// when there is neither.
  std::vector<int> SignalColumns(const std::string& name) const;
  /// Every signal name: the columns, with the element columns of a vector signal listed once
  /// as its stem ("q" for "q[0]" ... "q[5]"), in file order.
  std::vector<std::string> SignalNames() const;
};

/// Reads a results CSV: a header `time,<columns>` (fields may be quoted as CsvField quotes
/// them), then one row of numbers per line (`nan`, `inf`, `-inf` allowed; blank lines and a
/// final CR of each line are ignored).
/// @throws std::runtime_error with one line: "FILE: ..." when the file cannot be read or is
///   empty, "FILE:LINE: ..." for a header whose first column is not `time` or that names a
///   column twice, a row with another number of fields than the header, a field that is not a
///   number (naming its column), or a time before the previous row's.
ResultsTable ReadResultsCsv(const std::string& path);

/// True when this build reads (and writes) .mat files: MatSupported() of io/mat_writer.h.
bool MatReadSupported();

/// Reads a .mat file written by WriteMat: every struct variable with the fields `time`,
/// `values` and `name` is a signal; its columns are named from `name` as the CSV names them.
/// @throws std::runtime_error (one line, naming the file) when it cannot be read, holds no
///   such struct, a struct's sizes disagree or its time differs from the first signal's, or
///   this build has no MAT support.
ResultsTable ReadResultsMat(const std::string& path);

/// The table as the Recording of a run, for code that takes recordings (the HTML report): the
/// element columns `name[0]` ... `name[n-1]` of a vector signal become one signal of width n
/// again, wherever they stand in the file; any other column (also an element column whose
/// vector has no `[0]`) is a signal of its own, named as its column.
Recording ToRecording(const ResultsTable& table);

/// ReadResultsMat for a name ending in `.mat` (any case), ReadResultsCsv for any other.
ResultsTable ReadResults(const std::string& path);

}  // namespace twinblocks::graph
