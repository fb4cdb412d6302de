#include "io/results_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "common/detail/plugin_loader.h"
#include "common/input_file.h"
#include "common/suggest.h"
#include "io/detail/mat_plugin.h"
#include "io/mat_writer.h"

namespace twinblocks::graph {

namespace {

// "q[3]" -> "q"; "" for a name that is not an element column.
std::string_view ElementStem(std::string_view column) {
  if (column.size() < 4 || column.back() != ']') return {};
  const size_t open = column.rfind('[');
  if (open == std::string_view::npos || open == 0 || open + 2 == column.size()) return {};
  for (size_t i = open + 1; i + 1 < column.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(column[i])) == 0) return {};
  }
  return column.substr(0, open);
}

std::runtime_error FileError(const std::string& file, int line, const std::string& what) {
  return std::runtime_error(file + ":" + std::to_string(line) + ": " + what);
}

// The fields of one CSV line; a quoted field may hold commas and doubled quotes. nullopt for
// a quote that is never closed or text after a closing quote.
std::optional<std::vector<std::string>> SplitCsvLine(std::string_view line) {
  std::vector<std::string> fields(1);
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ',') {
      fields.emplace_back();
      ++i;
    } else if (c == '"' && fields.back().empty()) {
      ++i;
      for (;;) {
        if (i >= line.size()) return std::nullopt;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            i += 2;
          } else {
            ++i;
            break;
          }
        } else {
          fields.back() += line[i++];
        }
      }
      if (i < line.size() && line[i] != ',') return std::nullopt;
    } else {
      fields.back() += c;
      ++i;
    }
  }
  return fields;
}

// A number as WriteCsv writes it (std::to_chars: "1.5", "-2e-14", "inf", "-nan"), leading and
// trailing blanks allowed; nullopt for anything else.
std::optional<double> ParseNumber(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

int ResultsTable::FindColumn(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

std::vector<int> ResultsTable::SignalColumns(const std::string& name) const {
  if (const int c = FindColumn(name); c >= 0) return {c};
  std::vector<int> out;
  for (int e = 0;; ++e) {
    const int c = FindColumn(name + "[" + std::to_string(e) + "]");
    if (c < 0) break;
    out.push_back(c);
  }
  return out;
}

std::vector<std::string> ResultsTable::SignalNames() const {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (const std::string& c : columns) {
    const std::string_view stem = ElementStem(c);
    const std::string name = stem.empty() ? c : std::string(stem);
    if (seen.insert(name).second) names.push_back(name);
  }
  return names;
}

ResultsTable ReadResultsCsv(const std::string& path) {
  std::string text;
  try {
    text = blocks::ReadTextFile(path);
  } catch (const blocks::InputFileError& e) {
    throw std::runtime_error(path + ": cannot read the results file: " + e.reason());
  }
  std::istringstream in(text);
  ResultsTable table;
  table.file = path;
  std::string line;
  int line_number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::optional<std::vector<std::string>> fields = SplitCsvLine(line);
    if (!fields) throw FileError(path, line_number, "unbalanced quotes");
    if (!have_header) {
      if ((*fields)[0] != "time") {
        throw FileError(path, line_number,
                        "the first column is '" + (*fields)[0] +
                            "', expected 'time' (a results file written by twinblocks run)");
      }
      std::unordered_set<std::string> seen;
      for (size_t i = 1; i < fields->size(); ++i) {
        if ((*fields)[i].empty() || !seen.insert((*fields)[i]).second) {
          throw FileError(path, line_number,
                          (*fields)[i].empty() ? "column " + std::to_string(i + 1) + " has no name"
                                               : "column '" + (*fields)[i] + "' appears twice");
        }
        table.columns.push_back((*fields)[i]);
      }
      table.values.resize(table.columns.size());
      have_header = true;
      continue;
    }
    if (fields->size() != table.columns.size() + 1) {
      throw FileError(path, line_number,
                      std::to_string(fields->size()) + " fields, expected " +
                          std::to_string(table.columns.size() + 1) + " as in the header");
    }
    for (size_t i = 0; i < fields->size(); ++i) {
      const std::optional<double> v = ParseNumber((*fields)[i]);
      const std::string& column = i == 0 ? std::string("time") : table.columns[i - 1];
      if (!v) {
        throw FileError(path, line_number,
                        "column '" + column + "': '" + (*fields)[i] + "' is not a number");
      }
      if (i == 0) {
        if (!std::isfinite(*v) || (!table.time.empty() && *v < table.time.back())) {
          throw FileError(path, line_number,
                          "time " + FormatNumber(*v) +
                              (std::isfinite(*v) ? " is before the previous row's " +
                                                       FormatNumber(table.time.back())
                                                 : " is not finite"));
        }
        table.time.push_back(*v);
      } else {
        table.values[i - 1].push_back(*v);
      }
    }
  }
  if (in.bad()) throw std::runtime_error(path + ": error reading the results file");
  if (!have_header) {
    throw std::runtime_error(path + ": empty, expected a header line 'time,...'");
  }
  return table;
}

bool MatReadSupported() { return MatSupported(); }

#ifdef TWINBLOCKS_MATIO

ResultsTable ReadResultsMat(const std::string& path) {
  std::optional<std::vector<internal::MatSignalStruct>> structs;
  try {
    blocks::CheckInputFile(path);  // libmatio would read a device or a FIFO forever
  } catch (const blocks::InputFileError& e) {
    throw std::runtime_error(path + ": cannot read as a .mat file: " + e.reason());
  }
  try {
    structs = blocks::internal::Plugin<internal::MatPlugin>("mat").read(path);
  } catch (const std::runtime_error& ex) {
    throw std::runtime_error("cannot read '" + path + "': " + ex.what());
  }
  if (!structs) throw std::runtime_error(path + ": cannot read as a .mat file");
  ResultsTable table;
  table.file = path;
  bool have_time = false;
  for (const internal::MatSignalStruct& s : *structs) {
    if (!s.time || s.time->cols != 1 || !s.values || s.values->rows != s.time->rows || !s.name ||
        s.name->empty()) {
      throw std::runtime_error(path + ": variable '" + s.variable +
                               "' is not a twinblocks signal (time N x 1, values N x width, "
                               "name text)");
    }
    const std::vector<double>& t = s.time->data;
    if (!have_time) {
      table.time = t;
      have_time = true;
    } else if (t != table.time) {
      throw std::runtime_error(path + ": variable '" + s.variable +
                               "' has other times than the signals before it");
    }
    const size_t rows = s.time->rows, width = s.values->cols;
    const double* v = s.values->data.data();
    for (size_t c = 0; c < width; ++c) {
      table.columns.push_back(width == 1 ? *s.name : *s.name + "[" + std::to_string(c) + "]");
      table.values.emplace_back(v + c * rows, v + (c + 1) * rows);
    }
  }
  if (!have_time) {
    throw std::runtime_error(path + ": no twinblocks signals in the .mat file");
  }
  return table;
}

#else

ResultsTable ReadResultsMat(const std::string& path) {
  throw std::runtime_error("cannot read '" + path +
                           "': twinblocks was built without MAT support (libmatio)");
}

#endif

ResultsTable ReadResults(const std::string& path) {
  std::string extension = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".mat" ? ReadResultsMat(path) : ReadResultsCsv(path);
}

Recording ToRecording(const ResultsTable& table) {
  std::vector<LoggedSignal> signals;
  std::vector<int> order;  // table column of each recording column
  std::vector<bool> taken(table.columns.size(), false);
  for (int c = 0; c < table.num_columns(); ++c) {
    if (taken[c]) continue;
    const std::string& column = table.columns[c];
    const std::string stem(ElementStem(column));
    std::vector<int> members;
    if (!stem.empty() && table.FindColumn(stem) < 0) members = table.SignalColumns(stem);
    if (std::find(members.begin(), members.end(), c) == members.end()) members = {c};
    const std::string& name = members.size() > 1 || members.front() != c ? stem : column;
    signals.push_back(
        {name, name, static_cast<int>(order.size()), static_cast<int>(members.size())});
    for (int m : members) {
      taken[m] = true;
      order.push_back(m);
    }
  }
  Recording recording(signals);
  std::vector<double> row(order.size());
  for (int r = 0; r < table.num_rows(); ++r) {
    for (size_t k = 0; k < order.size(); ++k) row[k] = table.values[order[k]][r];
    recording.Append(table.time[r], row.data());
  }
  return recording;
}

}  // namespace twinblocks::graph
