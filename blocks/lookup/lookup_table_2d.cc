#include "blocks/lookup/lookup_table_2d.h"

#include <memory>
#include <utility>
#include <vector>

#include "blocks/lookup/detail/lookup_params.h"

namespace twinblocks::blocks {

namespace {

lookup::Breakpoints BreakpointsParam2D(const Params& p, const char* name) {
  const Eigen::VectorXd x = p.Vector(name);
  return lookup::Breakpoints(std::vector<double>(x.data(), x.data() + x.size()),
                             "parameter '" + std::string(name) + "'", name);
}

lookup::GridInterpolant MakeLookupTable2D(const Params& p) {
  const lookup::Interpolation interpolation = lookup::ReadInterpolation(p);
  const lookup::Extrapolation extrapolation = lookup::ReadExtrapolation(p, interpolation);
  std::vector<lookup::Breakpoints> axes;
  std::vector<double> values;
  if (lookup::TableFromFile(p, {"breakpoints1", "breakpoints2", "table"})) {
    const std::string path = lookup::TableFilePath(p);
    lookup::TableData data = lookup::ReadTableMatrix(path);
    axes = lookup::FileBreakpoints(data, path);
    values = std::move(data.values);
  } else {
    axes.push_back(BreakpointsParam2D(p, "breakpoints1"));
    axes.push_back(BreakpointsParam2D(p, "breakpoints2"));
    const Eigen::MatrixXd table = p.Matrix("table");
    const int n1 = axes[0].size(), n2 = axes[1].size();
    if (table.rows() != n1 || table.cols() != n2) {
      throw BlockError("parameter 'table' is " + std::to_string(table.rows()) + " x " +
                           std::to_string(table.cols()) + ", but must be " + std::to_string(n1) +
                           " x " + std::to_string(n2) +
                           ": a row per breakpoint of u1 "
                           "(breakpoints1), a column per breakpoint of u2 (breakpoints2)",
                       "table");
    }
    // Eigen's column-major storage is the first-dimension-fastest order of the grid.
    values = lookup::FiniteValues(table, "table");
  }
  lookup::CheckTableSize(static_cast<std::ptrdiff_t>(values.size()), 2, interpolation,
                         p.has("file") ? "file" : "table");
  return lookup::GridInterpolant(std::move(axes), std::move(values), interpolation, extrapolation,
                                 lookup::ReadSplineEnds(p));
}

}  // namespace

LookupTable2D::LookupTable2D(const Params& params)
    : TableLookupBlock(MakeLookupTable2D(params), {"u1", "u2"}) {}

BlockType LookupTable2DType() {
  BlockType t;
  t.name = "LookupTable2D";
  t.category = "Lookup tables";
  t.summary = "Looks up two inputs in a 2-D table (a map such as a motor's efficiency).";
  t.doc =
      "y = T(u1, u2) element-wise, where T gives table(i, k) at (breakpoints1(i), "
      "breakpoints2(k)): rows follow u1, columns u2; linear interpolation is bilinear, "
      "y = (1 - f2) ((1 - f1) T(i, k) + f1 T(i+1, k)) + f2 ((1 - f1) T(i, k+1) + f1 "
      "T(i+1, k+1)). The table is `breakpoints1`, `breakpoints2` and `table` (a matrix, "
      "[[row 1], [row 2], ...]), or `file`: a CSV file (relative to the model file's "
      "directory unless absolute) laid out as the matrix, its first line a corner cell (any "
      "text) then the breakpoints of u2, each following line a breakpoint of u1 then its "
      "row; both sets strictly increasing as written, every number a finite decimal. " +
      lookup::MethodsDoc() + " Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink 2-D Lookup Table (interpolation Flat, Nearest, Linear point-slope, Cubic "
      "spline; extrapolation Clip, Linear, Cubic spline). Differs: no Akima spline or Linear "
      "Lagrange, double data only, table from parameters or a file (no input port).";
  t.params = {
      {"breakpoints1", ParamKind::kVector, "", "breakpoints of u1 (the rows), strictly increasing"},
      {"breakpoints2", ParamKind::kVector, "",
       "breakpoints of u2 (the columns), strictly increasing"},
      {"table", ParamKind::kMatrix, "", "values, n1 x n2: [[T11, T12, ...], [T21, ...], ...]"},
      lookup::FileParamSpec("CSV file with the table as a matrix instead of breakpoints1, "
                            "breakpoints2 and table: first line a corner cell then the "
                            "breakpoints of u2, then a breakpoint of u1 and its row per line"),
      lookup::InterpolationParamSpec(),
      lookup::ExtrapolationParamSpec(),
      lookup::SplineEndsParamSpec()};
  t.inputs = {{"u1", "input along the rows"}, {"u2", "input along the columns"}};
  t.outputs = {{"y", "the table at each (u1, u2), the common width (scalars expand)"}};
  t.create = [](const Params& p) { return std::make_unique<LookupTable2D>(p); };
  return t;
}

}  // namespace twinblocks::blocks
