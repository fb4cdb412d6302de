#include "blocks/lookup/detail/lookup_params.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "blocks/block_error.h"
#include "common/format_value.h"
#include "common/input_limits.h"

namespace twinblocks::blocks::lookup {

bool TableFromFile(const Params& params, const std::vector<const char*>& table_params) {
  std::string names;
  for (std::size_t i = 0; i < table_params.size(); ++i) {
    names += (i == 0 ? "'" : (i + 1 == table_params.size() ? "' and '" : "', '"));
    names += table_params[i];
  }
  names += "'";
  bool any = false;
  for (const char* p : table_params) any = any || params.has(p);
  if (params.has("file")) {
    if (any) throw BlockError("give either 'file' or " + names + ", not both", "file");
    return true;
  }
  for (const char* p : table_params) {
    if (!params.has(p)) {
      throw BlockError("parameter '" + std::string(p) + "' is required (the table is given by " +
                           names + ", or by 'file')",
                       p);
    }
  }
  return false;
}

std::string TableFilePath(const Params& params) {
  const std::string& file = params.String("file");
  if (file.empty()) throw BlockError("parameter 'file' is empty", "file");
  const std::string& dir = params.base_dir();
  return (file.front() == '/' || dir.empty()) ? file : dir + "/" + file;
}

Interpolation ReadInterpolation(const Params& params) {
  const std::string& w = params.Word("interpolation");
  if (w == "flat") return Interpolation::kFlat;
  if (w == "nearest") return Interpolation::kNearest;
  if (w == "spline") return Interpolation::kSpline;
  if (w == "linear") return Interpolation::kLinear;
  throw BlockError(
      "parameter 'interpolation' must be flat, nearest, linear or spline, got '" + w + "'",
      "interpolation");
}

Extrapolation ReadExtrapolation(const Params& params, Interpolation interpolation) {
  const std::string& w = params.Word("extrapolation");
  if (w == "clip") return Extrapolation::kClip;
  if (w == "linear") return Extrapolation::kLinear;
  if (w == "spline") {
    if (interpolation != Interpolation::kSpline) {
      throw BlockError("extrapolation 'spline' needs interpolation 'spline'", "extrapolation");
    }
    return Extrapolation::kSpline;
  }
  throw BlockError("parameter 'extrapolation' must be clip, linear or spline, got '" + w + "'",
                   "extrapolation");
}

SplineEnds ReadSplineEnds(const Params& params) {
  const std::string& w = params.Word("spline_ends");
  if (w == "natural") return SplineEnds::kNatural;
  if (w == "not_a_knot") return SplineEnds::kNotAKnot;
  throw BlockError("parameter 'spline_ends' must be not_a_knot or natural, got '" + w + "'",
                   "spline_ends");
}

std::vector<double> FiniteValues(const Eigen::MatrixXd& m, const std::string& param) {
  std::vector<double> v(m.data(), m.data() + m.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw BlockError("parameter '" + param + "': value " + std::to_string(i + 1) + " is " +
                           FormatValue(v[i]) + ", not a finite number",
                       param);
    }
  }
  return v;
}

std::vector<int> ReadSizes(const Params& params, int fallback) {
  if (!params.has("sizes")) return {fallback};
  const Eigen::VectorXd s = params.Vector("sizes");
  if (s.size() < 1 || s.size() > kMaxDimensions) {
    throw BlockError("parameter 'sizes' must give 1 to " + std::to_string(kMaxDimensions) +
                         " numbers of breakpoints (one per dimension), got " +
                         std::to_string(s.size()),
                     "sizes");
  }
  std::vector<int> sizes;
  for (Eigen::Index j = 0; j < s.size(); ++j) {
    const double v = s(j);
    if (!(v >= 2.0 && v <= 1e9) || v != std::floor(v)) {
      throw BlockError("parameter 'sizes': dimension " + std::to_string(j + 1) + " has " +
                           FormatValue(v) + " breakpoints; expected a whole number >= 2",
                       "sizes");
    }
    sizes.push_back(static_cast<int>(v));
  }
  return sizes;
}

std::vector<Breakpoints> SplitBreakpoints(const std::vector<double>& values,
                                          const std::vector<int>& sizes, const std::string& param) {
  std::int64_t total = 0;
  for (int n : sizes) total += n;
  if (total != static_cast<std::int64_t>(values.size())) {
    std::string counts;
    for (std::size_t j = 0; j < sizes.size(); ++j) {
      counts += (j > 0 ? " + " : "") + std::to_string(sizes[j]);
    }
    throw BlockError("parameter '" + param + "' has " + std::to_string(values.size()) +
                         " values, but 'sizes' asks for " + counts + " = " + std::to_string(total) +
                         " (the breakpoints of each dimension in turn)",
                     param);
  }
  std::vector<Breakpoints> axes;
  std::size_t at = 0;
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    std::vector<double> x(values.begin() + at, values.begin() + at + sizes[j]);
    at += sizes[j];
    const std::string what =
        sizes.size() == 1 ? "parameter '" + param + "'"
                          : "parameter '" + param + "' (dimension " + std::to_string(j + 1) + ")";
    axes.emplace_back(std::move(x), what, param);
  }
  return axes;
}

std::vector<Breakpoints> FileBreakpoints(const TableData& data, const std::string& path) {
  std::vector<Breakpoints> axes;
  for (std::size_t j = 0; j < data.breakpoints.size(); ++j) {
    axes.emplace_back(data.breakpoints[j],
                      "'" + path + "': the breakpoints of input " + std::to_string(j + 1), "file");
  }
  return axes;
}

void CheckTableSize(std::ptrdiff_t size, int dimensions, Interpolation interpolation,
                    const std::string& param) {
  const std::int64_t most = CurrentInputLimits().block_values;
  // A spline keeps the derivatives across every subset of the dimensions: 2^d arrays.
  const std::int64_t copies =
      interpolation == Interpolation::kSpline ? (std::int64_t{1} << dimensions) : 1;
  if (size > most / copies) {
    throw BlockError(
        "the table of " + std::to_string(size) + " values" +
            (copies > 1 ? " (" + std::to_string(copies) + " arrays of that size for a spline in " +
                              std::to_string(dimensions) + " dimensions)"
                        : "") +
            " is " + OverLimit("block_values"),
        param);
  }
}

ParamSpec FileParamSpec(const std::string& doc) { return {"file", ParamKind::kString, "", doc}; }

ParamSpec InterpolationParamSpec() {
  return {"interpolation",
          ParamKind::kWord,
          "linear",
          "between breakpoints: flat (value at the breakpoint below), nearest, linear, or "
          "spline (cubic)",
          {"linear", "flat", "nearest", "spline"}};
}

ParamSpec ExtrapolationParamSpec() {
  return {"extrapolation",
          ParamKind::kWord,
          "linear",
          "outside the breakpoints: clip (end value), linear (end interval's line; spline: end "
          "tangent), or spline (end cubic, spline only); flat and nearest always clip",
          {"linear", "clip", "spline"}};
}

ParamSpec SplineEndsParamSpec() {
  return {"spline_ends",
          ParamKind::kWord,
          "not_a_knot",
          "end conditions of the spline: not_a_knot (as MATLAB's spline) or natural (zero "
          "second derivative)",
          {"not_a_knot", "natural"}};
}

std::string MethodsDoc() {
  return "Between breakpoints, interpolation=flat takes the value at the breakpoint at or below "
         "the input, nearest the value at the nearest breakpoint (the upper one halfway), "
         "linear interpolates linearly along each dimension (y = (1 - f) y_k + f y_k+1, f = "
         "(u - x_k) / (x_k+1 - x_k)), and spline evaluates the cubic spline through the values "
         "(in several dimensions the tensor-product spline: a 1-D spline along each dimension "
         "in turn), with end conditions spline_ends=not_a_knot (the first two and the last two "
         "intervals are one cubic each, as MATLAB's spline; a cubic is reproduced exactly) or "
         "natural (zero second derivative at the ends). Outside the breakpoints, "
         "extrapolation=clip holds the end value, linear continues the end interval's line "
         "(for a spline the tangent at the end breakpoint, as Simulink's), and spline (with "
         "spline interpolation only) continues the end interval's cubic; flat and nearest "
         "always clip, as in Simulink. Breakpoints must be finite and strictly increasing, at "
         "least 2 per dimension; table values finite. Each element of vector inputs is looked "
         "up in the same table (scalars expand). Finding the interval costs O(1) for all but "
         "very uneven breakpoints (an index of equal-width buckets), and starts from the "
         "interval found at the previous evaluation. flat and nearest make the output jump "
         "where an input crosses a breakpoint (flat) or a midpoint (nearest): at continuous "
         "rate each input's cell is a mode, chosen at major steps and held inside solver "
         "steps, and the two ends of the cell are zero-crossing functions, so that the "
         "variable-step solvers land on each jump. linear and spline outputs are continuous "
         "and have none.";
}

}  // namespace twinblocks::blocks::lookup
