#include "blocks/lookup/detail/table_file.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "blocks/block_error.h"
#include "blocks/lookup/detail/grid_interpolant.h"
#include "common/format_value.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "common/number_text.h"

namespace twinblocks::blocks::lookup {

namespace {

// The file is read whole (within the file_bytes limit) but parsed a line at a time into
// numbers only: a file of millions of short lines, or one line of millions of cells, must not
// become millions of strings. Every count of values is checked against block_values before
// it grows further.
class TableCsv {
 public:
  explicit TableCsv(std::string path) : path_(std::move(path)) {
    try {
      text_ = ReadTextFile(path_);
    } catch (const InputFileError& e) {
      throw BlockError(e.what(), "file");
    }
  }

  const std::string& path() const { return path_; }
  int line_number() const { return number_; }

  /// Moves to the next line that is not blank; false at the end of the file.
  bool Next() {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      line_ = Trim(std::string_view(text_).substr(pos_, end - pos_));
      pos_ = end + 1;
      ++number_;
      if (!line_.empty()) return true;
    }
    return false;
  }

  /// The cells of the line: one more than its commas.
  std::int64_t CountCells() const { return 1 + std::count(line_.begin(), line_.end(), ','); }

  /// Calls f(column, cell) for each trimmed cell of the line, in order.
  template <class F>
  void ForEachCell(F&& f) const {
    std::size_t start = 0;
    for (int column = 0;; ++column) {
      const std::size_t comma = line_.find(',', start);
      f(column, Trim(line_.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) return;
      start = comma + 1;
    }
  }

  /// The cell as a finite decimal number.
  /// @throws BlockError naming path:line and the column otherwise
  double Number(int column, std::string_view cell) const {
    // Decimal and finite only: strtod would read "0x10" as 16, and nan or inf would spread
    // through every interpolation that touches them.
    const std::optional<double> v = ParseDecimal(cell);
    if (!v) {
      // A cell is quoted whole only when short: the message stays one readable line.
      const std::string shown =
          cell.size() <= 40 ? std::string(cell) : std::string(cell.substr(0, 37)) + "...";
      Fail("column " + std::to_string(column + 1) + ": '" + shown +
           "' is not a finite decimal number");
    }
    return *v;
  }

  /// @throws BlockError naming path:line
  [[noreturn]] void Fail(const std::string& what) const {
    throw BlockError(path_ + ":" + std::to_string(number_) + ": " + what, "file");
  }

  /// @throws BlockError naming path:line when `count` values are over block_values.
  void CheckValueCount(std::int64_t count) const {
    const std::int64_t most = CurrentInputLimits().block_values;
    if (count > most) {
      Fail("the table holds more than " + std::to_string(most) + " values, " +
           OverLimit("block_values"));
    }
  }

 private:
  static std::string_view Trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
  }

  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  int number_ = 0;
  std::string_view line_;
};

std::string PointText(const double* coords, int d) {
  std::string s = "(";
  for (int j = 0; j < d; ++j) s += (j > 0 ? ", " : "") + FormatValue(coords[j]);
  return s + ")";
}

std::string GridText(const std::vector<int>& sizes) {
  std::string s;
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    s += (j > 0 ? " x " : "") + std::to_string(sizes[j]);
  }
  return s;
}

}  // namespace

TableData ReadTableRows(const std::string& path, int dimensions) {
  TableCsv csv(path);
  if (!csv.Next())
    throw BlockError(path + ":1: the file is empty (expected a header line)", "file");
  const std::int64_t columns = csv.CountCells();
  if (dimensions > 0 && columns != dimensions + 1) {
    csv.Fail("the header must name " + std::to_string(dimensions) + " input column" +
             (dimensions > 1 ? "s" : "") + " and one output column, got " +
             std::to_string(columns) + " columns");
  }
  if (dimensions == 0 && (columns < 2 || columns > kMaxDimensions + 1)) {
    csv.Fail("the header must name 1 to " + std::to_string(kMaxDimensions) +
             " input columns and one output column, got " + std::to_string(columns) + " columns");
  }
  const int d = static_cast<int>(columns) - 1;
  std::vector<std::string> names;
  csv.ForEachCell([&](int, std::string_view cell) { names.emplace_back(cell.substr(0, 40)); });
  const int header_line = csv.line_number();
  std::vector<double> coords;  // (rows x d)
  std::vector<double> values;  // (rows)
  std::vector<int> lines;      // (rows) where each row was written
  while (csv.Next()) {
    const std::int64_t cells = csv.CountCells();
    if (cells != columns) {
      csv.Fail("expected " + std::to_string(columns) + " values (as in the header), got " +
               std::to_string(cells));
    }
    csv.CheckValueCount(static_cast<std::int64_t>(coords.size() + values.size()) + columns);
    csv.ForEachCell([&](int column, std::string_view cell) {
      const double v = csv.Number(column, cell);
      if (column < d) {
        coords.push_back(v);
      } else {
        values.push_back(v);
      }
    });
    lines.push_back(csv.line_number());
  }
  if (values.empty()) {
    throw BlockError(path + ":" + std::to_string(header_line) + ": no data rows after the header",
                     "file");
  }
  const std::ptrdiff_t rows = static_cast<std::ptrdiff_t>(values.size());
  TableData table;
  std::vector<int> sizes;
  for (int j = 0; j < d; ++j) {
    std::vector<double> x;
    for (std::ptrdiff_t r = 0; r < rows; ++r) x.push_back(coords[r * d + j]);
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end()), x.end());
    if (x.size() < 2) {
      throw BlockError(path + ": column " + std::to_string(j + 1) + " ('" + names[j] +
                           "') holds one value only; a table needs at least 2 breakpoints per "
                           "input",
                       "file");
    }
    sizes.push_back(static_cast<int>(x.size()));
    table.breakpoints.push_back(std::move(x));
  }
  // Fewer grid points than rows: some point appears twice, which the filling below names.
  const std::ptrdiff_t size = GridSize(sizes, rows);
  if (size < 0 || size > rows) {
    throw BlockError(path + ": the rows do not fill a grid: the input columns hold " +
                         GridText(sizes) +
                         " distinct values, so every one of their combinations must appear "
                         "once, but there are " +
                         std::to_string(rows) + " rows",
                     "file");
  }
  table.values.assign(size, 0.0);
  std::vector<int> line_of(size, 0);  // the line that gave each grid point
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    std::ptrdiff_t at = 0, stride = 1;
    for (int j = 0; j < d; ++j) {
      const std::vector<double>& x = table.breakpoints[j];
      const auto i = std::lower_bound(x.begin(), x.end(), coords[r * d + j]) - x.begin();
      at += i * stride;
      stride *= static_cast<std::ptrdiff_t>(x.size());
    }
    if (line_of[at] != 0) {
      throw BlockError(path + ":" + std::to_string(lines[r]) + ": the point " +
                           PointText(&coords[r * d], d) + " appears twice (first on line " +
                           std::to_string(line_of[at]) + ")",
                       "file");
    }
    line_of[at] = lines[r];
    table.values[at] = values[r];
  }
  return table;
}

TableData ReadTableMatrix(const std::string& path) {
  TableCsv csv(path);
  if (!csv.Next())
    throw BlockError(path + ":1: the file is empty (expected a header line)", "file");
  const std::int64_t columns = csv.CountCells();
  if (columns < 3) {
    csv.Fail("the first line must hold a corner cell then at least 2 breakpoints of u2, got " +
             std::to_string(columns) + " cells");
  }
  csv.CheckValueCount(columns - 1);
  std::vector<double> x2;
  csv.ForEachCell([&](int column, std::string_view cell) {
    if (column == 0) return;  // the corner: a label, if anything
    const double v = csv.Number(column, cell);
    if (!x2.empty() && !(v > x2.back())) {
      csv.Fail("the breakpoints of u2 must be strictly increasing: " + FormatValue(v) +
               " is not above " + FormatValue(x2.back()));
    }
    x2.push_back(v);
  });
  std::vector<double> x1;
  std::vector<double> by_rows;  // (n1 x n2), row-major as written
  while (csv.Next()) {
    const std::int64_t cells = csv.CountCells();
    if (cells != columns) {
      csv.Fail("expected " + std::to_string(columns) + " values (as on the first line), got " +
               std::to_string(cells));
    }
    csv.CheckValueCount(static_cast<std::int64_t>(x2.size() + x1.size() + by_rows.size()) +
                        columns);
    csv.ForEachCell([&](int column, std::string_view cell) {
      const double v = csv.Number(column, cell);
      if (column > 0) {
        by_rows.push_back(v);
        return;
      }
      if (!x1.empty() && !(v > x1.back())) {
        csv.Fail("the breakpoints of u1 (first column) must be strictly increasing: " +
                 FormatValue(v) + " is not above " + FormatValue(x1.back()));
      }
      x1.push_back(v);
    });
  }
  if (x1.size() < 2) {
    throw BlockError(path +
                         ": a table needs at least 2 rows (breakpoints of u1) after the first "
                         "line, got " +
                         std::to_string(x1.size()),
                     "file");
  }
  const std::size_t n1 = x1.size(), n2 = x2.size();
  TableData table;
  table.values.resize(n1 * n2);
  for (std::size_t i = 0; i < n1; ++i) {
    for (std::size_t k = 0; k < n2; ++k) table.values[i + n1 * k] = by_rows[i * n2 + k];
  }
  table.breakpoints = {std::move(x1), std::move(x2)};
  return table;
}

}  // namespace twinblocks::blocks::lookup
