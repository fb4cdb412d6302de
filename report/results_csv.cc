#include "report/results_csv.h"

#include <charconv>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinblocks::report {

namespace {

/// The fields of one CSV line; a quoted field may hold commas and doubled quotes.
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        fields.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else if (ch != '\r') {
      fields.back() += ch;
    }
  }
  return fields;
}

/// "name" and i for a column "name[i]"; false for any other name.
bool SplitIndexed(const std::string& column, std::string* base, int* index) {
  if (column.size() < 4 || column.back() != ']') return false;
  const size_t open = column.rfind('[');
  if (open == std::string::npos || open == 0) return false;
  const char* first = column.data() + open + 1;
  const char* last = column.data() + column.size() - 1;
  auto [end, ec] = std::from_chars(first, last, *index);
  if (ec != std::errc() || end != last || first == last) return false;
  *base = column.substr(0, open);
  return true;
}

/// The logged signals of the columns: runs of name[0], name[1], ... make one signal each.
std::vector<graph::LoggedSignal> SignalsOf(const std::vector<std::string>& columns) {
  std::vector<graph::LoggedSignal> signals;
  for (int c = 0; c < static_cast<int>(columns.size());) {
    std::string base;
    int index = -1;
    int width = 1;
    std::string name = columns[c];
    if (SplitIndexed(columns[c], &base, &index) && index == 0) {
      name = base;
      std::string next_base;
      int next_index = -1;
      while (c + width < static_cast<int>(columns.size()) &&
             SplitIndexed(columns[c + width], &next_base, &next_index) && next_base == base &&
             next_index == width) {
        ++width;
      }
    }
    signals.push_back({name, name, c, width});
    c += width;
  }
  return signals;
}

}  // namespace

graph::Recording ReadResultsCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read results '" + path + "'");
  std::string line;
  if (!std::getline(in, line)) {
    throw std::runtime_error(path + ":1: empty file, expected a header 'time,<signals>'");
  }
  std::vector<std::string> header = SplitCsvLine(line);
  if (header.front() != "time") {
    throw std::runtime_error(path + ":1: expected a header starting with 'time', got '" +
                             header.front() + "'");
  }
  header.erase(header.begin());
  graph::Recording recording(SignalsOf(header));
  std::vector<double> row(header.size());
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> fields = SplitCsvLine(line);
    if (fields.size() != header.size() + 1) {
      throw std::runtime_error(path + ":" + std::to_string(line_number) + ": expected " +
                               std::to_string(header.size() + 1) + " fields, got " +
                               std::to_string(fields.size()));
    }
    double t = 0.0;
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string& text = fields[f];
      double value = 0.0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        throw std::runtime_error(path + ":" + std::to_string(line_number) + ": column '" +
                                 (f == 0 ? std::string("time") : header[f - 1]) + "': '" + text +
                                 "' is not a number");
      }
      if (f == 0) {
        t = value;
      } else {
        row[f - 1] = value;
      }
    }
    recording.Append(t, row.data());
  }
  return recording;
}

}  // namespace twinblocks::report
