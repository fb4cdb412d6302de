#include "blocks/lookup/detail/table_file.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>

#include "blocks/block_error.h"
#include "blocks/lookup/detail/grid_interpolant.h"
#include "common/format_value.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "common/number_text.h"

namespace twinblocks::blocks::lookup {

namespace {

/// The lines of a CSV file, split into trimmed cells, with their line numbers; blank lines
/// left out.
struct CsvLine {
  int number = 0;
  std::vector<std::string> cells;
};

std::string TrimCell(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<CsvLine> ReadCsvLines(const std::string& path) {
  std::string text;
  try {
    text = ReadTextFile(path);
  } catch (const InputFileError& e) {
    throw BlockError(e.what(), "file");
  }
  std::vector<CsvLine> lines;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (TrimCell(line).empty()) continue;
    CsvLine csv;
    csv.number = number;
    std::string::size_type start = 0;
    while (true) {
      const auto comma = line.find(',', start);
      csv.cells.push_back(TrimCell(line.substr(start, comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    lines.push_back(std::move(csv));
  }
  if (lines.empty())
    throw BlockError(path + ":1: the file is empty (expected a header line)", "file");
  return lines;
}

[[noreturn]] void FailAt(const std::string& path, int line, const std::string& what) {
  throw BlockError(path + ":" + std::to_string(line) + ": " + what, "file");
}

double ParseCell(const std::string& path, const CsvLine& line, int column) {
  const std::string& s = line.cells[column];
  // Decimal and finite only: strtod would read "0x10" as 16, and nan or inf would spread
  // through every interpolation that touches them.
  const std::optional<double> v = ParseDecimal(s);
  if (!v) {
    FailAt(path, line.number,
           "column " + std::to_string(column + 1) + ": '" + s + "' is not a finite decimal number");
  }
  return *v;
}

void CheckValueCount(const std::string& path, const CsvLine& line, std::size_t count) {
  const std::int64_t most = CurrentInputLimits().block_values;
  if (static_cast<std::int64_t>(count) > most) {
    FailAt(path, line.number,
           "the table holds more than " + std::to_string(most) + " values, " +
               OverLimit("block_values"));
  }
}

std::string PointText(const double* coords, int d) {
  std::string s = "(";
  for (int j = 0; j < d; ++j) s += (j > 0 ? ", " : "") + FormatValue(coords[j]);
  return s + ")";
}

}  // namespace

TableData ReadTableRows(const std::string& path, int dimensions) {
  const std::vector<CsvLine> lines = ReadCsvLines(path);
  const CsvLine& header = lines.front();
  const int columns = static_cast<int>(header.cells.size());
  if (dimensions > 0 && columns != dimensions + 1) {
    FailAt(path, header.number,
           "the header must name " + std::to_string(dimensions) + " input column" +
               (dimensions > 1 ? "s" : "") + " and one output column, got " +
               std::to_string(columns) + " columns");
  }
  if (dimensions == 0 && (columns < 2 || columns > kMaxDimensions + 1)) {
    FailAt(path, header.number,
           "the header must name 1 to " + std::to_string(kMaxDimensions) +
               " input columns and one output column, got " + std::to_string(columns) + " columns");
  }
  const int d = columns - 1;
  if (lines.size() < 2) FailAt(path, header.number, "no data rows after the header");
  std::vector<double> coords;  // (rows x d)
  std::vector<double> values;  // (rows)
  for (std::size_t r = 1; r < lines.size(); ++r) {
    const CsvLine& line = lines[r];
    if (static_cast<int>(line.cells.size()) != columns) {
      FailAt(path, line.number,
             "expected " + std::to_string(columns) + " values (as in the header), got " +
                 std::to_string(line.cells.size()));
    }
    for (int j = 0; j < d; ++j) coords.push_back(ParseCell(path, line, j));
    values.push_back(ParseCell(path, line, d));
    CheckValueCount(path, line, coords.size() + values.size());
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
      throw BlockError(path + ": column " + std::to_string(j + 1) + " ('" + header.cells[j] +
                           "') holds one value only; a table needs at least 2 breakpoints per "
                           "input",
                       "file");
    }
    sizes.push_back(static_cast<int>(x.size()));
    table.breakpoints.push_back(std::move(x));
  }
  const std::ptrdiff_t size = GridSize(sizes, rows);
  if (size != rows) {
    std::string grid;
    for (int j = 0; j < d; ++j) grid += (j > 0 ? " x " : "") + std::to_string(sizes[j]);
    // Fewer points than rows: some point appears twice, which the filling below names.
    if (size < 0 || size > rows) {
      throw BlockError(path + ": the rows do not fill a grid: the input columns hold " + grid +
                           " distinct values, so every one of their combinations must appear "
                           "once, but there are " +
                           std::to_string(rows) + " rows",
                       "file");
    }
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
    const int number = lines[r + 1].number;
    if (line_of[at] != 0) {
      FailAt(path, number,
             "the point " + PointText(&coords[r * d], d) + " appears twice (first on line " +
                 std::to_string(line_of[at]) + ")");
    }
    line_of[at] = number;
    table.values[at] = values[r];
  }
  return table;
}

TableData ReadTableMatrix(const std::string& path) {
  const std::vector<CsvLine> lines = ReadCsvLines(path);
  const CsvLine& first = lines.front();
  const int columns = static_cast<int>(first.cells.size());
  if (columns < 3) {
    FailAt(path, first.number,
           "the first line must hold a corner cell then at least 2 breakpoints of u2, got " +
               std::to_string(columns) + " cells");
  }
  std::vector<double> x2;
  for (int c = 1; c < columns; ++c) {
    const double v = ParseCell(path, first, c);
    if (!x2.empty() && !(v > x2.back())) {
      FailAt(path, first.number,
             "the breakpoints of u2 must be strictly increasing: " + FormatValue(v) +
                 " is not above " + FormatValue(x2.back()));
    }
    x2.push_back(v);
  }
  std::vector<double> x1;
  std::vector<double> by_rows;  // (n1 x n2), row-major as written
  for (std::size_t r = 1; r < lines.size(); ++r) {
    const CsvLine& line = lines[r];
    if (static_cast<int>(line.cells.size()) != columns) {
      FailAt(path, line.number,
             "expected " + std::to_string(columns) + " values (as on the first line), got " +
                 std::to_string(line.cells.size()));
    }
    const double v = ParseCell(path, line, 0);
    if (!x1.empty() && !(v > x1.back())) {
      FailAt(path, line.number,
             "the breakpoints of u1 (first column) must be strictly increasing: " + FormatValue(v) +
                 " is not above " + FormatValue(x1.back()));
    }
    x1.push_back(v);
    for (int c = 1; c < columns; ++c) by_rows.push_back(ParseCell(path, line, c));
    CheckValueCount(path, line, by_rows.size() + x1.size());
  }
  if (x1.size() < 2) {
    FailAt(path, lines.back().number,
           "a table needs at least 2 rows (breakpoints of u1) after the first line, got " +
               std::to_string(x1.size()));
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
