#include "runtime/results.h"

#include <charconv>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "common/output_file.h"

namespace twinblocks::graph {

Recording::Recording(const std::vector<LoggedSignal>& signals) : signals_(signals) {
  for (const LoggedSignal& s : signals_) {
    if (s.width == 1) {
      columns_.push_back(s.name);
    } else {
      for (int i = 0; i < s.width; ++i) columns_.push_back(s.name + "[" + std::to_string(i) + "]");
    }
  }
}

int Recording::FindColumn(const std::string& name) const {
  for (int i = 0; i < num_columns(); ++i) {
    if (columns_[i] == name) return i;
  }
  return -1;
}

void Recording::Reserve(int rows) {
  time_.reserve(rows);
  values_.reserve(static_cast<size_t>(rows) * columns_.size());
}

void Recording::Append(double t, const double* signals) {
  time_.push_back(t);
  for (const LoggedSignal& s : signals_) {
    values_.insert(values_.end(), signals + s.offset, signals + s.offset + s.width);
  }
}

void Recording::Truncate(int rows) {
  if (rows < 0 || rows > num_rows()) {
    throw std::out_of_range("Recording::Truncate(" + std::to_string(rows) + ") of " +
                            std::to_string(num_rows()) + " rows");
  }
  time_.resize(rows);
  values_.resize(static_cast<size_t>(rows) * columns_.size());
}

void Recording::WriteCsv(const std::string& path) const {
  try {
    WriteCsvRows(path);
  } catch (const OutputFileError& e) {
    throw OutputFileError(e.path(), e.reason(), e.opened(), "results");
  }
}

void Recording::WriteCsvRows(const std::string& path) const {
  LineFileWriter file(path);
  std::string line = "time";
  for (const std::string& c : columns_) line += "," + c;
  line += "\n";
  file.Append(line);
  char buf[32];
  const size_t ncols = columns_.size();
  for (size_t r = 0; r < time_.size(); ++r) {
    line.clear();
    auto put = [&](double v) {
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
      line.append(buf, end);
    };
    put(time_[r]);
    for (size_t c = 0; c < ncols; ++c) {
      line += ',';
      put(values_[r * ncols + c]);
    }
    line += '\n';
    file.Append(line);
  }
  file.Close();
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace twinblocks::graph
