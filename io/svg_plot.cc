#include "io/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "common/output_file.h"

namespace twinblocks::graph {

namespace {

// Legend names longer than this are cut: the legend must not squeeze the chart away.
constexpr size_t kMaxLegendChars = 40;
// Rough width of one character of the 12 px sans-serif text, for sizing margins.
constexpr double kCharWidth = 7.0;

std::string Printf(const char* format, double value, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, precision, value);
  return buf;
}

// "1.5e-14" rather than printf's "1.5e-14"/"1e+06": no '+', no leading zeros in the exponent.
std::string TidyExponent(std::string s) {
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mantissa = s.substr(0, e);
  std::string exponent = s.substr(e + 1);
  bool negative = false;
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
    negative = exponent[0] == '-';
    exponent.erase(0, 1);
  }
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

// floor(log10(x)) for x > 0, robust to 1e-3 being stored as 0.00099999...
int Decade(double x) { return static_cast<int>(std::floor(std::log10(x) + 1e-9)); }

// "1.50" -> "1.5", "2.0" -> "2": each label in its shortest form, as people write them.
std::string TrimZeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// Enough digits to tell ticks `step` apart, no more.
std::string FormatTick(double value, double step, bool scientific) {
  if (value == 0.0) return "0";
  if (scientific) {
    const int digits = std::max(0, Decade(std::abs(value)) - Decade(step));
    std::string s = Printf("%.*e", value, digits);
    const size_t e = s.find('e');
    return TidyExponent(TrimZeros(s.substr(0, e)) + s.substr(e));
  }
  const int decimals = std::max(0, -Decade(step));
  return TrimZeros(Printf("%.*f", value, decimals));
}

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

// A coordinate in px: a tenth of a pixel is finer than any screen shows.
std::string Px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

// Tableau's ten categorical colours, then golden-angle hues: neighbours stay distinct.
std::string Colour(size_t i) {
  static const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  if (i < 10) return kPalette[i];
  const int hue = static_cast<int>(std::fmod(137.508 * static_cast<double>(i), 360.0));
  return "hsl(" + std::to_string(hue) + ",65%,45%)";
}

// The indices [begin, end) of the finite runs of y.
std::vector<std::pair<int, int>> FiniteRuns(const std::vector<double>& y) {
  std::vector<std::pair<int, int>> runs;
  const int n = static_cast<int>(y.size());
  int i = 0;
  while (i < n) {
    while (i < n && !std::isfinite(y[i])) ++i;
    const int begin = i;
    while (i < n && std::isfinite(y[i])) ++i;
    if (i > begin) runs.emplace_back(begin, i);
  }
  return runs;
}

}  // namespace

AxisTicks LinearTicks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0.0, hi = 1.0;
  if (hi < lo) std::swap(lo, hi);
  target = std::max(target, 2);
  // A constant signal (or one that varies only by rounding) gets a range around its value,
  // so that the line sits in the middle instead of the axis labels needing 16 digits.
  const double mid = 0.5 * (lo + hi);
  if (hi - lo <= 1e-9 * std::abs(mid) || hi == lo) {
    const double half = mid == 0.0 ? 1.0 : 0.1 * std::abs(mid);
    lo = mid - half;
    hi = mid + half;
  }
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, Decade(raw));
  const double n = raw / magnitude;
  const double step = (n < 1.5 ? 1.0 : n < 3.5 ? 2.0 : n < 7.5 ? 5.0 : 10.0) * magnitude;
  const long k0 = static_cast<long>(std::floor(lo / step + 1e-9));
  const long k1 = static_cast<long>(std::ceil(hi / step - 1e-9));

  AxisTicks ticks;
  ticks.lo = static_cast<double>(k0) * step;
  ticks.hi = static_cast<double>(k1) * step;
  const double largest = std::max(std::abs(ticks.lo), std::abs(ticks.hi));
  const bool scientific = largest >= 1e6 || largest < 1e-3;
  for (long k = k0; k <= k1; ++k) {
    // k * step, not a running sum: no drift, and an exact 0.
    const double v = static_cast<double>(k) * step;
    ticks.values.push_back(v);
    ticks.labels.push_back(FormatTick(v, step, scientific));
  }
  return ticks;
}

AxisTicks LogTicks(double lo, double hi, int target) {
  if (!(lo > 0.0) || !std::isfinite(lo) || !(hi > 0.0) || !std::isfinite(hi)) lo = 1.0, hi = 10.0;
  if (hi < lo) std::swap(lo, hi);
  target = std::max(target, 2);
  int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-12));
  int d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-12));
  if (d1 <= d0) d1 = d0 + 1;
  const int every = std::max(1, (d1 - d0 + target - 1) / target);
  auto floor_div = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  d0 = floor_div(d0, every) * every;
  d1 = -floor_div(-d1, every) * every;

  AxisTicks ticks;
  ticks.lo = d0;
  ticks.hi = d1;
  for (int d = d0; d <= d1; d += every) {
    ticks.values.push_back(d);
    if (d <= -4 || d >= 4) {
      ticks.labels.push_back("1e" + std::to_string(d));
    } else {
      ticks.labels.push_back(Printf("%.*f", std::pow(10.0, d), std::max(0, -d)));
    }
  }
  return ticks;
}

std::vector<std::vector<int>> DecimateMinMax(const std::vector<double>& y, int max_points) {
  const int n = static_cast<int>(y.size());
  max_points = std::max(max_points, 4);
  // Each bucket gives two points.
  const int bucket = n <= max_points ? 1 : (2 * n + max_points - 1) / max_points;
  std::vector<std::vector<int>> out;
  for (const auto& [begin, end] : FiniteRuns(y)) {
    std::vector<int> kept;
    if (bucket == 1 || end - begin <= 2) {
      for (int i = begin; i < end; ++i) kept.push_back(i);
      out.push_back(std::move(kept));
      continue;
    }
    kept.push_back(begin);
    for (int b = begin + 1; b < end - 1; b += bucket) {
      const int e = std::min(b + bucket, end - 1);
      int lo = b, hi = b;
      for (int i = b; i < e; ++i) {
        if (y[i] < y[lo]) lo = i;
        if (y[i] > y[hi]) hi = i;
      }
      kept.push_back(std::min(lo, hi));
      if (hi != lo) kept.push_back(std::max(lo, hi));
    }
    kept.push_back(end - 1);
    out.push_back(std::move(kept));
  }
  return out;
}

std::string RenderSvgPlot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  // What is drawn of each series: for a log axis, log10|y| without the zeros (NaN stays, as a
  // gap).
  std::vector<std::vector<double>> ts(series.size()), vs(series.size());
  double tmin = std::numeric_limits<double>::infinity(), tmax = -tmin;
  double vmin = tmin, vmax = -tmin;
  for (size_t s = 0; s < series.size(); ++s) {
    const PlotSeries& ps = series[s];
    if (ps.t.size() != ps.y.size()) {
      throw std::logic_error("plot series '" + ps.name + "': t has " + std::to_string(ps.t.size()) +
                             " values, y " + std::to_string(ps.y.size()));
    }
    for (size_t i = 0; i < ps.y.size(); ++i) {
      double v = ps.y[i];
      if (options.log_y && std::isfinite(v)) {
        if (v == 0.0) continue;
        v = std::log10(std::abs(v));
      }
      if (!std::isfinite(ps.t[i])) continue;
      ts[s].push_back(ps.t[i]);
      vs[s].push_back(std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN());
      if (std::isfinite(v)) {
        tmin = std::min(tmin, ps.t[i]);
        tmax = std::max(tmax, ps.t[i]);
        vmin = std::min(vmin, v);
        vmax = std::max(vmax, v);
      }
    }
  }
  const bool has_data = std::isfinite(vmin);
  if (!has_data) tmin = 0.0, tmax = 1.0;
  AxisTicks xt = LinearTicks(tmin, tmax, 8);
  AxisTicks yt = options.log_y ? (has_data ? LogTicks(std::pow(10.0, vmin), std::pow(10.0, vmax))
                                           : LogTicks(1.0, 10.0))
                               : (has_data ? LinearTicks(vmin, vmax) : LinearTicks(0.0, 1.0));

  // Frame: room on the left for the widest tick label and the y label, on the right for the
  // legend.
  size_t widest_tick = 1, widest_name = 1;
  for (const std::string& l : yt.labels) widest_tick = std::max(widest_tick, l.size());
  for (const PlotSeries& ps : series) {
    widest_name = std::max(widest_name, std::min(ps.name.size(), kMaxLegendChars));
  }
  const double w = options.width, h = options.height;
  const double left = 24.0 + kCharWidth * static_cast<double>(widest_tick) + 12.0;
  const double legend_w = 36.0 + kCharWidth * static_cast<double>(widest_name);
  const double right = legend_w + 20.0;
  const double top = options.title.empty() ? 16.0 : 36.0;
  const double bottom = 48.0;
  const double x0 = left, x1 = std::max(left + 50.0, w - right);
  const double y0 = top, y1 = std::max(top + 50.0, h - bottom);
  auto px = [&](double t) { return x0 + (t - xt.lo) / (xt.hi - xt.lo) * (x1 - x0); };
  auto py = [&](double v) { return y1 - (v - yt.lo) / (yt.hi - yt.lo) * (y1 - y0); };

  std::string svg;
  svg.reserve(4096 + series.size() * 16 * static_cast<size_t>(options.max_points + 8));
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Px(w) + "\" height=\"" + Px(h) +
         "\" viewBox=\"0 0 " + Px(w) + " " + Px(h) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!options.title.empty()) {
    svg += "<text class=\"title\" x=\"" + Px(0.5 * (x0 + x1)) +
           "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + Escape(options.title) +
           "</text>\n";
  }

  // Grid and ticks.
  svg += "<g class=\"grid\" stroke=\"#e6e6e6\" stroke-width=\"1\">\n";
  for (double v : xt.values) {
    svg += "<line x1=\"" + Px(px(v)) + "\" y1=\"" + Px(y0) + "\" x2=\"" + Px(px(v)) + "\" y2=\"" +
           Px(y1) + "\"/>\n";
  }
  for (double v : yt.values) {
    svg += "<line x1=\"" + Px(x0) + "\" y1=\"" + Px(py(v)) + "\" x2=\"" + Px(x1) + "\" y2=\"" +
           Px(py(v)) + "\"/>\n";
  }
  svg += "</g>\n";
  svg += "<rect class=\"frame\" x=\"" + Px(x0) + "\" y=\"" + Px(y0) + "\" width=\"" + Px(x1 - x0) +
         "\" height=\"" + Px(y1 - y0) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg += "<g class=\"xticks\" text-anchor=\"middle\">\n";
  for (size_t i = 0; i < xt.values.size(); ++i) {
    const std::string x = Px(px(xt.values[i]));
    svg += "<line x1=\"" + x + "\" y1=\"" + Px(y1) + "\" x2=\"" + x + "\" y2=\"" + Px(y1 + 5) +
           "\" stroke=\"#333\"/>";
    svg += "<text class=\"tick\" x=\"" + x + "\" y=\"" + Px(y1 + 18) + "\">" +
           Escape(xt.labels[i]) + "</text>\n";
  }
  svg += "</g>\n<g class=\"yticks\" text-anchor=\"end\">\n";
  for (size_t i = 0; i < yt.values.size(); ++i) {
    const std::string y = Px(py(yt.values[i]));
    svg += "<line x1=\"" + Px(x0 - 5) + "\" y1=\"" + y + "\" x2=\"" + Px(x0) + "\" y2=\"" + y +
           "\" stroke=\"#333\"/>";
    svg += "<text class=\"tick\" x=\"" + Px(x0 - 8) + "\" y=\"" + y + "\" dy=\"4\">" +
           Escape(yt.labels[i]) + "</text>\n";
  }
  svg += "</g>\n";
  if (!options.xlabel.empty()) {
    svg += "<text class=\"xlabel\" x=\"" + Px(0.5 * (x0 + x1)) + "\" y=\"" + Px(h - 10) +
           "\" text-anchor=\"middle\">" + Escape(options.xlabel) + "</text>\n";
  }
  std::string ylabel = options.ylabel;
  if (options.log_y) ylabel = ylabel.empty() ? "|y|" : "|" + ylabel + "|";
  if (!ylabel.empty()) {
    const std::string x = "16", y = Px(0.5 * (y0 + y1));
    svg += "<text class=\"ylabel\" x=\"" + x + "\" y=\"" + y + "\" transform=\"rotate(-90 " + x +
           " " + y + ")\" text-anchor=\"middle\">" + Escape(ylabel) + "</text>\n";
  }
  if (!has_data) {
    svg += "<text class=\"nodata\" x=\"" + Px(0.5 * (x0 + x1)) + "\" y=\"" + Px(0.5 * (y0 + y1)) +
           "\" text-anchor=\"middle\" fill=\"#888\">no data</text>\n";
  }

  // The lines.
  for (size_t s = 0; s < series.size(); ++s) {
    svg += "<g class=\"series\" fill=\"none\" stroke=\"" + Colour(s) +
           "\" stroke-width=\"1.5\" stroke-linejoin=\"round\">\n";
    for (const std::vector<int>& run : DecimateMinMax(vs[s], options.max_points)) {
      svg += "<polyline points=\"";
      for (size_t k = 0; k < run.size(); ++k) {
        if (k > 0) svg += ' ';
        svg += Px(px(ts[s][run[k]]));
        svg += ',';
        svg += Px(py(vs[s][run[k]]));
      }
      svg += "\"/>\n";
    }
    svg += "</g>\n";
  }

  // Legend, right of the chart.
  const double lx = x1 + 14.0;
  svg += "<g class=\"legend\">\n";
  for (size_t s = 0; s < series.size(); ++s) {
    const double ly = y0 + 10.0 + 18.0 * static_cast<double>(s);
    std::string name = series[s].name;
    if (name.size() > kMaxLegendChars) name = name.substr(0, kMaxLegendChars - 3) + "...";
    svg += "<line x1=\"" + Px(lx) + "\" y1=\"" + Px(ly) + "\" x2=\"" + Px(lx + 22) + "\" y2=\"" +
           Px(ly) + "\" stroke=\"" + Colour(s) + "\" stroke-width=\"2\"/>";
    svg += "<text x=\"" + Px(lx + 28) + "\" y=\"" + Px(ly) + "\" dy=\"4\">" + Escape(name) +
           "</text>\n";
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

std::vector<PlotSeries> PlotSeriesFromRecording(const PlotSpec& plot, const System& system,
                                                const Recording& recording) {
  std::vector<PlotSeries> out;
  std::vector<double> time(recording.num_rows());
  for (int r = 0; r < recording.num_rows(); ++r) time[r] = recording.time(r);
  for (const std::string& text : plot.signals) {
    const std::optional<PlotSignal> ps = ParsePlotSignal(text);
    const LoggedSignal* logged = ps ? system.FindLogged(ps->signal) : nullptr;
    if (logged == nullptr || ps->element >= logged->width) {
      throw std::runtime_error("plot '" + plot.file + "': '" + text +
                               "' is not among the logged signals");
    }
    auto column_name = [&](int element) {
      return logged->width == 1 ? logged->name : logged->name + "[" + std::to_string(element) + "]";
    };
    const int first = ps->element >= 0 ? ps->element : 0;
    const int last = ps->element >= 0 ? ps->element : logged->width - 1;
    for (int e = first; e <= last; ++e) {
      const int col = recording.FindColumn(column_name(e));
      if (col < 0) {
        throw std::runtime_error("plot '" + plot.file + "': no column '" + column_name(e) +
                                 "' in the results");
      }
      PlotSeries series;
      series.name = ps->element >= 0 || logged->width == 1
                        ? text
                        : ps->signal + "[" + std::to_string(e) + "]";
      series.t = time;
      series.y.resize(time.size());
      for (int r = 0; r < recording.num_rows(); ++r) series.y[r] = recording.value(r, col);
      out.push_back(std::move(series));
    }
  }
  return out;
}

void WritePlotFile(const PlotSpec& plot, const System& system, const Recording& recording,
                   const std::string& path) {
  PlotOptions options;
  options.title = plot.title;
  options.xlabel = plot.xlabel;
  options.ylabel = plot.ylabel;
  options.log_y = plot.log_y;
  const std::string svg = RenderSvgPlot(PlotSeriesFromRecording(plot, system, recording), options);
  WriteWholeFile(path, svg);
}

}  // namespace twinblocks::graph
