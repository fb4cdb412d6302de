#include "blocks/lookup/lookup_table_nd.h"

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blocks/lookup/detail/lookup_params.h"

namespace twinblocks::blocks {

namespace {

std::string GridText(const std::vector<int>& sizes) {
  std::string s;
  for (std::size_t j = 0; j < sizes.size(); ++j)
    s += (j > 0 ? " x " : "") + std::to_string(sizes[j]);
  return s;
}

lookup::GridInterpolant MakeLookupTableND(const Params& p) {
  const lookup::Interpolation interpolation = lookup::ReadInterpolation(p);
  const lookup::Extrapolation extrapolation = lookup::ReadExtrapolation(p, interpolation);
  std::vector<lookup::Breakpoints> axes;
  std::vector<double> values;
  if (lookup::TableFromFile(p, {"breakpoints", "table"})) {
    if (p.has("sizes")) {
      throw BlockError(
          "give 'sizes' only with 'breakpoints' and 'table' (a file's columns "
          "give the sizes)",
          "sizes");
    }
    const std::string path = lookup::TableFilePath(p);
    lookup::TableData data = lookup::ReadTableRows(path, 0);
    axes = lookup::FileBreakpoints(data, path);
    values = std::move(data.values);
  } else {
    const std::vector<double> x = lookup::FiniteValues(p.Vector("breakpoints"), "breakpoints");
    const std::vector<int> sizes = lookup::ReadSizes(p, static_cast<int>(x.size()));
    axes = lookup::SplitBreakpoints(x, sizes, "breakpoints");
    values = lookup::FiniteValues(p.Vector("table"), "table");
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(values.size());
    const std::ptrdiff_t grid = lookup::GridSize(sizes, std::numeric_limits<std::ptrdiff_t>::max());
    if (grid != n) {
      throw BlockError("parameter 'table' has " + std::to_string(n) + " values, but the grid of " +
                           GridText(sizes) + " breakpoints has " +
                           (grid < 0 ? "too many" : std::to_string(grid)) +
                           " points (one value per point, the first dimension fastest)",
                       "table");
    }
  }
  const int d = static_cast<int>(axes.size());
  lookup::CheckTableSize(static_cast<std::ptrdiff_t>(values.size()), d, interpolation,
                         p.has("file") ? "file" : "table");
  return lookup::GridInterpolant(std::move(axes), std::move(values), interpolation, extrapolation,
                                 lookup::ReadSplineEnds(p));
}

}  // namespace

LookupTableND::LookupTableND(const Params& params)
    : TableLookupBlock(MakeLookupTableND(params), {}) {}

BlockType LookupTableNDType() {
  BlockType t;
  t.name = "LookupTableND";
  t.category = "Lookup tables";
  t.summary = "Looks up d inputs in a d-dimensional table (d = 1 to 30).";
  t.doc =
      "y = T(u1, ..., ud) element-wise, one input per dimension; linear interpolation is "
      "multilinear, y = sum over the 2^d corners of the cell of prod_j (f_j or 1 - f_j) "
      "times the corner's value. The table is `sizes` ([n1, ..., nd], the number of "
      "breakpoints of each dimension; left out, one dimension), `breakpoints` (those of "
      "dimension 1, then those of dimension 2, ..., n1 + ... + nd values, each set strictly "
      "increasing) and `table` (n1 x ... x nd values, the first dimension fastest as "
      "MATLAB stores arrays: the value at breakpoints (i1, ..., id), counted from 1, is "
      "table(i1 + n1 (i2 - 1) + n1 n2 (i3 - 1) + ...)); or `file`: a CSV file (relative to "
      "the model file's directory unless absolute) with a header line naming the d inputs "
      "and the output, then one row per grid point, its d coordinates then its value, in any "
      "order; the breakpoints are the distinct values of each input column, and every "
      "combination must appear exactly once. " +
      lookup::MethodsDoc() +
      " A spline in d dimensions keeps 2^d arrays the size of the table and sums 4^d terms "
      "per evaluation. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink n-D Lookup Table (interpolation Flat, Nearest, Linear point-slope, Cubic "
      "spline; extrapolation Clip, Linear, Cubic spline). Differs: no Akima spline or Linear "
      "Lagrange, double data only, the table from parameters (as one vector with its sizes) "
      "or a file of rows, no input port for it.";
  t.params = {
      {"sizes", ParamKind::kVector, "",
       "breakpoints per dimension [n1, ..., nd], each >= 2; left out: one dimension"},
      {"breakpoints", ParamKind::kVector, "",
       "the breakpoints of dimension 1, then 2, ...: n1 + ... + nd values"},
      {"table", ParamKind::kVector, "", "n1 x ... x nd values, the first dimension fastest"},
      lookup::FileParamSpec("CSV file with the table instead of sizes, breakpoints and "
                            "table: a header, then rows 'u1, ..., ud, value'"),
      lookup::InterpolationParamSpec(),
      lookup::ExtrapolationParamSpec(),
      lookup::SplineEndsParamSpec()};
  t.inputs = {{"u1..ud", "input along each dimension (d = the number of sizes)"}};
  t.outputs = {{"y", "the table at each point, the common width (scalars expand)"}};
  t.create = [](const Params& p) { return std::make_unique<LookupTableND>(p); };
  return t;
}

}  // namespace twinblocks::blocks
