#include "io/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>

#include "common/output_file.h"
#include "common/suggest.h"
#include "runtime/results.h"

namespace twinblocks::graph {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double SummarizeColumn(const Recording& recording, int column, SummaryOp op) {
  if (column < 0 || column >= recording.num_columns()) {
    throw std::logic_error("SummarizeColumn: column " + std::to_string(column) + " is not in [0, " +
                           std::to_string(recording.num_columns()) + ")");
  }
  const int n = recording.num_rows();
  if (n == 0) return kNaN;
  for (int r = 0; r < n; ++r) {
    if (std::isnan(recording.value(r, column))) return kNaN;
  }
  auto y = [&](int r) { return recording.value(r, column); };
  switch (op) {
    case SummaryOp::kMax:
    case SummaryOp::kMin:
    case SummaryOp::kMaxAbs: {
      double best = op == SummaryOp::kMaxAbs ? std::abs(y(0)) : y(0);
      for (int r = 1; r < n; ++r) {
        const double v = op == SummaryOp::kMaxAbs ? std::abs(y(r)) : y(r);
        best = op == SummaryOp::kMin ? std::min(best, v) : std::max(best, v);
      }
      return best;
    }
    case SummaryOp::kFinal:
      return y(n - 1);
    case SummaryOp::kMean:
    case SummaryOp::kRms: {
      const bool rms = op == SummaryOp::kRms;
      const double span = recording.time(n - 1) - recording.time(0);
      double sum = 0.0;
      if (span > 0.0) {
        // ∫ over each step of the line from a to b: (a + b) / 2 dt, and of its square
        // (a² + ab + b²) / 3 dt.
        for (int r = 1; r < n; ++r) {
          const double a = y(r - 1), b = y(r);
          const double dt = recording.time(r) - recording.time(r - 1);
          sum += dt * (rms ? (a * a + a * b + b * b) / 3.0 : 0.5 * (a + b));
        }
        sum /= span;
      } else {
        // No time to weight by: the rows count equally.
        for (int r = 0; r < n; ++r) sum += rms ? y(r) * y(r) : y(r);
        sum /= n;
      }
      return rms ? std::sqrt(sum) : sum;
    }
  }
  throw std::logic_error("SummarizeColumn: not a SummaryOp (" +
                         std::to_string(static_cast<int>(op)) + ")");
}

std::vector<SummaryValue> Summarize(const std::vector<SummarySpec>& summaries, const System& system,
                                    const Recording& recording) {
  std::vector<SummaryValue> out;
  for (const SummarySpec& summary : summaries) {
    const std::string what = "summary " + std::string(SummaryOpName(summary.op));
    for (const std::string& text : summary.signals) {
      const std::optional<PlotSignal> ps = ParsePlotSignal(text);
      const LoggedSignal* logged = ps ? system.FindLogged(ps->signal) : nullptr;
      if (logged == nullptr || ps->element >= logged->width) {
        throw std::runtime_error(what + ": '" + text + "' is not among the logged signals");
      }
      const int first = ps->element >= 0 ? ps->element : 0;
      const int last = ps->element >= 0 ? ps->element : logged->width - 1;
      for (int e = first; e <= last; ++e) {
        const std::string column_name =
            logged->width == 1 ? logged->name : logged->name + "[" + std::to_string(e) + "]";
        const int col = recording.FindColumn(column_name);
        if (col < 0) {
          throw std::runtime_error(what + ": no column '" + column_name + "' in the results");
        }
        SummaryValue v;
        v.signal = ps->element >= 0 || logged->width == 1
                       ? text
                       : ps->signal + "[" + std::to_string(e) + "]";
        v.op = summary.op;
        v.value = SummarizeColumn(recording, col, summary.op);
        v.label = summary.label;
        out.push_back(std::move(v));
      }
    }
  }
  return out;
}

void WriteSummaryCsv(const std::vector<SummaryValue>& values, const std::string& path) {
  std::string text = "signal,op,value,label\n";
  for (const SummaryValue& v : values) {
    text += CsvField(v.signal) + "," + std::string(SummaryOpName(v.op)) + "," +
            FormatNumber(v.value) + "," + CsvField(v.label) + "\n";
  }
  WriteWholeFile(path, text);
}

}  // namespace twinblocks::graph
