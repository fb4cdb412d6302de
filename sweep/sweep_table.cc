#include "sweep/sweep_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

#include "common/output_file.h"
#include "common/suggest.h"
#include "io/svg_plot.h"
#include "runtime/results.h"

namespace twinblocks::sweep {

namespace {

std::string ColumnName(const graph::SummaryValue& v) {
  return std::string(graph::SummaryOpName(v.op)) + "(" + v.signal + ")";
}

void WriteText(const std::string& text, const std::string& path, const std::string& what) {
  try {
    graph::WriteWholeFile(path, text);
  } catch (const graph::OutputFileError& e) {
    throw graph::OutputFileError(e.path(), e.reason() + " (the " + what + ")", e.opened());
  }
}

// The rows by index, checking that each run is there once.
std::vector<const RunResult*> ByIndex(int num_runs, const std::vector<RunResult>& rows) {
  std::vector<const RunResult*> out(num_runs, nullptr);
  for (const RunResult& r : rows) {
    if (r.index < 0 || r.index >= num_runs || out[r.index] != nullptr) {
      throw std::logic_error("sweep table: run " + std::to_string(r.index) +
                             " is outside the plan or given twice");
    }
    out[r.index] = &r;
  }
  for (int i = 0; i < num_runs; ++i) {
    if (out[i] == nullptr) {
      throw std::logic_error("sweep table: run " + std::to_string(i) + " is missing");
    }
  }
  return out;
}

// Bytes out and in: sizes as uint64, doubles and ints by their bit patterns (both ends are
// the same program on machines of one byte order: an MPI job).
class Writer {
 public:
  void U64(std::uint64_t v) { Raw(&v, sizeof v); }
  void I32(std::int32_t v) { Raw(&v, sizeof v); }
  void F64(double v) { Raw(&v, sizeof v); }
  void Str(const std::string& s) {
    U64(s.size());
    bytes_.append(s);
  }
  void Doubles(const std::vector<double>& v) {
    U64(v.size());
    if (!v.empty()) Raw(v.data(), v.size() * sizeof(double));
  }
  std::string Take() { return std::move(bytes_); }

 private:
  void Raw(const void* p, size_t n) { bytes_.append(static_cast<const char*>(p), n); }
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t U64() { return Pod<std::uint64_t>(); }
  std::int32_t I32() { return Pod<std::int32_t>(); }
  double F64() { return Pod<double>(); }
  std::string Str() {
    const std::uint64_t n = Count(1);
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  std::vector<double> Doubles() {
    const std::uint64_t n = Count(sizeof(double));
    std::vector<double> v(n);
    if (n > 0) std::memcpy(v.data(), bytes_.data() + pos_, n * sizeof(double));
    pos_ += n * sizeof(double);
    return v;
  }
  // A count of items of `item_size` bytes that must fit in what is left.
  std::uint64_t Count(size_t item_size) {
    const std::uint64_t n = U64();
    if (n > (bytes_.size() - pos_) / item_size) Fail();
    return n;
  }
  bool done() const { return pos_ == bytes_.size(); }

 private:
  template <typename T>
  T Pod() {
    if (bytes_.size() - pos_ < sizeof(T)) Fail();
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  [[noreturn]] void Fail() const {
    throw std::runtime_error("sweep rows: the bytes end early or are not an encoding of rows (" +
                             std::to_string(bytes_.size()) + " bytes)");
  }
  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<std::string> SummaryColumnNames(const std::vector<RunResult>& rows) {
  std::vector<const RunResult*> sorted;
  for (const RunResult& r : rows) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RunResult* a, const RunResult* b) { return a->index < b->index; });
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const RunResult* r : sorted) {
    for (const graph::SummaryValue& v : r->summaries) {
      const std::string name = ColumnName(v);
      if (seen.emplace(name, static_cast<int>(names.size())).second) names.push_back(name);
    }
  }
  return names;
}

std::string SummaryTableCsv(const SweepPlan& plan, const std::vector<RunResult>& rows) {
  const std::vector<const RunResult*> by_index = ByIndex(plan.num_runs(), rows);
  const std::vector<std::string> columns = SummaryColumnNames(rows);
  std::string text = "index";
  // Appended field by field (not "," + field): it is also what GCC 12's -Wrestrict can follow.
  auto field = [&text](const std::string& f) {
    text += ',';
    text += f;
  };
  for (const std::string& name : plan.parameter_names()) field(graph::CsvField(name));
  text += ",status,t_reached,error";
  for (const std::string& c : columns) field(graph::CsvField(c));
  text += '\n';
  for (const RunResult* r : by_index) {
    text += std::to_string(r->index);
    for (const std::string& v : r->values) field(graph::CsvField(v));
    field(std::string(RunStatusName(r->status)));
    const bool ran = r->status != RunStatus::kInvalid && r->status != RunStatus::kNotRun;
    field(ran ? graph::FormatNumber(r->t_reached) : std::string());
    field(graph::CsvField(r->error));
    std::map<std::string, double> values;
    for (const graph::SummaryValue& v : r->summaries) values.emplace(ColumnName(v), v.value);
    for (const std::string& c : columns) {
      const auto it = values.find(c);
      field(it == values.end() ? std::string() : graph::FormatNumber(it->second));
    }
    text += '\n';
  }
  return text;
}

void WriteSummaryTable(const SweepPlan& plan, const std::vector<RunResult>& rows,
                       const std::string& path) {
  WriteText(SummaryTableCsv(plan, rows), path, "sweep summary");
}

void WriteTimings(const std::vector<RunResult>& rows, const std::string& path) {
  std::vector<const RunResult*> sorted;
  for (const RunResult& r : rows) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RunResult* a, const RunResult* b) { return a->index < b->index; });
  std::string text = "index,status,wall_seconds\n";
  for (const RunResult* r : sorted) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.4g", r->wall_seconds);
    text += std::to_string(r->index) + "," + std::string(RunStatusName(r->status)) + "," + seconds +
            "\n";
  }
  WriteText(text, path, "sweep timings");
}

std::string PlotFileName(const std::string& signal) {
  std::string name = "plot_";
  for (char c : signal) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    name += keep ? c : '_';
  }
  while (name.back() == '_') name.pop_back();
  return name + ".svg";
}

void WriteSweepPlot(const SweepPlan& plan, const std::vector<RunResult>& rows, int plot,
                    const std::string& signal, const std::string& title, const std::string& path) {
  const std::vector<const RunResult*> by_index = ByIndex(plan.num_runs(), rows);
  std::vector<graph::PlotSeries> lines;
  for (const RunResult* r : by_index) {
    if (r->status == RunStatus::kInvalid || r->status == RunStatus::kNotRun) continue;
    if (plot < 0 || plot >= static_cast<int>(r->series.size())) {
      throw std::logic_error("WriteSweepPlot: run " + std::to_string(r->index) + " has no plot " +
                             std::to_string(plot));
    }
    const std::vector<graph::PlotSeries>& series = r->series[plot];
    std::string label = plan.Label(SweepRun{r->index, r->values});
    if (r->status == RunStatus::kFailed)
      label += " (failed at t = " + graph::FormatNumber(r->t_reached) + ")";
    if (r->status == RunStatus::kTimedOut)
      label += " (timed out at t = " + graph::FormatNumber(r->t_reached) + ")";
    for (const graph::PlotSeries& s : series) {
      graph::PlotSeries line = s;
      line.name = series.size() == 1 ? label : label + ": " + s.name;
      lines.push_back(std::move(line));
    }
  }
  graph::PlotOptions options;
  options.title = title;
  options.ylabel = signal;
  WriteText(graph::RenderSvgPlot(lines, options), path, "sweep plot");
}

std::string EncodeRunResults(const std::vector<RunResult>& rows) {
  Writer w;
  w.U64(rows.size());
  for (const RunResult& r : rows) {
    w.I32(r.index);
    w.U64(r.values.size());
    for (const std::string& v : r.values) w.Str(v);
    w.I32(static_cast<std::int32_t>(r.status));
    w.F64(r.t_reached);
    w.Str(r.error);
    w.U64(r.summaries.size());
    for (const graph::SummaryValue& v : r.summaries) {
      w.Str(v.signal);
      w.I32(static_cast<std::int32_t>(v.op));
      w.F64(v.value);
      w.Str(v.label);
    }
    w.U64(r.series.size());
    for (const std::vector<graph::PlotSeries>& plot : r.series) {
      w.U64(plot.size());
      for (const graph::PlotSeries& s : plot) {
        w.Str(s.name);
        w.Doubles(s.t);
        w.Doubles(s.y);
      }
    }
    w.F64(r.wall_seconds);
    w.Str(r.write_error);
  }
  return w.Take();
}

std::vector<RunResult> DecodeRunResults(std::string_view bytes) {
  Reader in(bytes);
  // Each count is checked against the bytes left (a row takes at least one byte), so a
  // corrupt count fails cleanly instead of reserving terabytes.
  const std::uint64_t n = in.Count(1);
  std::vector<RunResult> rows(n);
  for (RunResult& r : rows) {
    r.index = in.I32();
    r.values.resize(in.Count(8));
    for (std::string& v : r.values) v = in.Str();
    const std::int32_t status = in.I32();
    if (status < 0 || status > static_cast<std::int32_t>(RunStatus::kTimedOut)) {
      throw std::runtime_error("sweep rows: bad run status " + std::to_string(status));
    }
    r.status = static_cast<RunStatus>(status);
    r.t_reached = in.F64();
    r.error = in.Str();
    r.summaries.resize(in.Count(8));
    for (graph::SummaryValue& v : r.summaries) {
      v.signal = in.Str();
      const std::int32_t op = in.I32();
      if (op < 0 || op > static_cast<std::int32_t>(graph::SummaryOp::kRms)) {
        throw std::runtime_error("sweep rows: bad summary op " + std::to_string(op));
      }
      v.op = static_cast<graph::SummaryOp>(op);
      v.value = in.F64();
      v.label = in.Str();
    }
    r.series.resize(in.Count(8));
    for (std::vector<graph::PlotSeries>& plot : r.series) {
      plot.resize(in.Count(8));
      for (graph::PlotSeries& s : plot) {
        s.name = in.Str();
        s.t = in.Doubles();
        s.y = in.Doubles();
      }
    }
    r.wall_seconds = in.F64();
    r.write_error = in.Str();
  }
  if (!in.done()) throw std::runtime_error("sweep rows: bytes left after the last row");
  return rows;
}

}  // namespace twinblocks::sweep
