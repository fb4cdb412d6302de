#include "blocks/signal/from_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "common/format_value.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "common/number_text.h"

namespace twinblocks::blocks {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream is(line);
  while (std::getline(is, cell, ',')) cells.push_back(Trim(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

std::string ToString(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

FromFile::FromFile(const Params& params) {
  const std::string& file = params.String("file");
  if (file.empty()) throw BlockError("parameter 'file' is empty", "file");
  const std::string& dir = params.base_dir();
  path_ = (file.front() == '/' || dir.empty()) ? file : dir + "/" + file;
  zoh_ = params.Word("interpolation") == "zoh";
  error_outside_ = params.Word("extrapolation") == "error";
  Load(path_);
  DeclareOutput("y", width_);
  DeclareSampleTime(SampleTime::Continuous());
  if (zoh_) {
    DeclareModes(1);  // the row held since the last major step
  } else {
    DeclareTimeDependence();  // linear between rows
  }
  // zoh: every data time is a jump the solvers land on. error: the end of the data is, so
  // that a run uses all of its data before it stops there.
  if (zoh_ || error_outside_) DeclareBreakpoints();
}

void FromFile::Load(const std::string& path) {
  std::string text;
  try {
    text = ReadTextFile(path);
  } catch (const InputFileError& e) {
    throw BlockError(e.what(), "file");
  }
  std::istringstream in(text);
  const std::int64_t most_values = CurrentInputLimits().block_values;
  std::string line;
  int line_no = 0;
  int columns = 0;
  auto fail = [&](const std::string& what) -> void {
    throw BlockError(path + ":" + std::to_string(line_no) + ": " + what, "file");
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (Trim(line).empty()) continue;
    const std::vector<std::string> cells = SplitCsv(line);
    if (columns == 0) {  // the header names the columns
      columns = static_cast<int>(cells.size());
      if (columns < 2) fail("the header must name a time column and at least one signal");
      continue;
    }
    if (static_cast<int>(cells.size()) != columns) {
      fail("expected " + std::to_string(columns) + " values (as in the header), got " +
           std::to_string(cells.size()));
    }
    for (int j = 0; j < columns; ++j) {
      const std::string& s = cells[j];
      // Decimal and finite only: strtod would read "0x10" as 16, and "nan" or "inf" would
      // spread through the run.
      const std::optional<double> parsed = ParseDecimal(s);
      if (!parsed) {
        fail("column " + std::to_string(j + 1) + ": '" + s + "' is not a finite decimal number");
      }
      const double v = *parsed;
      if (j == 0) {
        if (!std::isfinite(v)) fail("time '" + s + "' is not finite");
        if (!times_.empty() && !(v > times_.back())) {
          fail("time " + s + " does not increase (previous " + ToString(times_.back()) + ")");
        }
        times_.push_back(v);
      } else {
        values_.push_back(v);
      }
    }
    if (static_cast<std::int64_t>(values_.size()) > most_values) {
      fail("the data hold more than " + std::to_string(most_values) + " values, " +
           OverLimit("block_values"));
    }
  }
  if (columns == 0)
    throw BlockError(path + ":1: the file is empty (expected a header line)", "file");
  if (times_.empty()) fail("no data rows after the header");
  width_ = columns - 1;
}

int FromFile::RowAt(double t) const {
  // Binary search: no allocation, O(log rows).
  return static_cast<int>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
}

void FromFile::ThrowOutside(double t) const {
  // FormatValue: 1.0000000580001 is not "1", which would read as inside the data.
  throw BlockError("time " + FormatValue(t) + " s is outside the data of '" + path_ + "' (" +
                       ToString(times_.front()) + " to " + ToString(times_.back()) +
                       " s) and extrapolation is 'error'",
                   "extrapolation");
}

void FromFile::DoInitialize(Context& c) const {
  if (zoh_) modes(c)[0] = RowAt(c.t);
}

void FromFile::DoCalcOutputs(Context& c, int stage) const {
  const double t = c.t;
  const int rows = num_rows();
  if (error_outside_ && (t < times_.front() || t > times_.back())) ThrowOutside(t);
  double* y = out(c, 0);
  int row;
  if (zoh_) {
    // Inside a solver step the row chosen at the major step holds: a stage that lands on the
    // next data time still sees the left limit, and the next major step switches.
    if (c.major) modes(c)[0] = RowAt(t);
    row = std::max(modes(c)[0], 0);
  } else {
    row = RowAt(t);
    if (row >= 0 && row < rows - 1) {
      const double s = (t - times_[row]) / (times_[row + 1] - times_[row]);
      const double* a = &values_[static_cast<size_t>(row) * width_];
      const double* b = a + width_;
      for (int i = 0; i < width_; ++i) y[i] = a[i] + s * (b[i] - a[i]);
      return;
    }
    row = row < 0 ? 0 : rows - 1;  // hold the end values
  }
  const double* a = &values_[static_cast<size_t>(row) * width_];
  for (int i = 0; i < width_; ++i) y[i] = a[i];
}

double FromFile::DoEndTime() const {
  return error_outside_ ? times_.back() : std::numeric_limits<double>::infinity();
}

std::string FromFile::DoEndReason() const {
  return "the data of '" + path_ + "' end at t = " + FormatValue(times_.back()) +
         " s and extrapolation is 'error'";
}

double FromFile::DoNextBreakpoint(const Context& c, double t) const {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  if (!zoh_) return t < times_.back() ? times_.back() : kNone;  // extrapolation="error"
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  return it == times_.end() ? kNone : *it;
}

BlockType FromFileType() {
  BlockType t;
  t.name = "FromFile";
  t.category = "Sources";
  t.summary = "Plays back signals from a CSV file.";
  t.doc =
      "Reads a CSV file with one header line; the first column is time in s, strictly "
      "increasing, and the other columns become the elements of y, in order. `file` is "
      "relative to the model file's directory unless absolute. interpolation=linear: y is "
      "interpolated linearly between rows; zoh: y holds each row until the next time, every "
      "data time is a breakpoint that solvers land on, and the row is a mode held inside "
      "solver steps. Outside the data, extrapolation=hold keeps the first/last row; error "
      "makes the last data time a breakpoint the solvers land on, records a row there and "
      "ends the run (exit status 3) saying that the data end, so that a run uses all of its "
      "data before it stops. A file that cannot be read or parsed is an error at compile "
      "naming file:line: only a regular file within the file_bytes limit is read, and every "
      "value must be a finite decimal number (not 0x10, nan or inf).";
  t.reference = "Simulink From Spreadsheet / From File (interpolation, hold extrapolation)";
  t.params = {
      {"file", ParamKind::kString, "", "CSV file: header line, then time (s) and values", {}, true},
      {"interpolation", ParamKind::kWord, "linear", "between rows", {"linear", "zoh"}},
      {"extrapolation",
       ParamKind::kWord,
       "hold",
       "before the first and after the last row",
       {"hold", "error"}}};
  t.outputs = {{"y", "the data columns after time, width columns - 1"}};
  t.create = [](const Params& p) { return std::make_unique<FromFile>(p); };
  return t;
}

}  // namespace twinblocks::blocks
