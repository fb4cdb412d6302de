#include "blocks/lookup/lookup_table.h"

#include <memory>
#include <utility>
#include <vector>

#include "blocks/lookup/detail/lookup_params.h"

namespace twinblocks::blocks {

namespace {

lookup::GridInterpolant MakeLookupTable1D(const Params& p) {
  const lookup::Interpolation interpolation = lookup::ReadInterpolation(p);
  const lookup::Extrapolation extrapolation = lookup::ReadExtrapolation(p, interpolation);
  std::vector<lookup::Breakpoints> axes;
  std::vector<double> values;
  if (lookup::TableFromFile(p, {"breakpoints", "table"})) {
    const std::string path = lookup::TableFilePath(p);
    lookup::TableData data = lookup::ReadTableRows(path, 1);
    axes = lookup::FileBreakpoints(data, path);
    values = std::move(data.values);
  } else {
    const Eigen::VectorXd x = p.Vector("breakpoints");
    axes.emplace_back(std::vector<double>(x.data(), x.data() + x.size()), "parameter 'breakpoints'",
                      "breakpoints");
    values = lookup::FiniteValues(p.Vector("table"), "table");
    if (values.size() != static_cast<std::size_t>(x.size())) {
      throw BlockError("parameter 'table' has " + std::to_string(values.size()) +
                           " values, but 'breakpoints' has " + std::to_string(x.size()) +
                           " (one value per breakpoint)",
                       "table");
    }
  }
  lookup::CheckTableSize(static_cast<std::ptrdiff_t>(values.size()), 1, interpolation,
                         p.has("file") ? "file" : "table");
  return lookup::GridInterpolant(std::move(axes), std::move(values), interpolation, extrapolation,
                                 lookup::ReadSplineEnds(p));
}

}  // namespace

LookupTable::LookupTable(const Params& params)
    : TableLookupBlock(MakeLookupTable1D(params), {"u"}) {}

BlockType LookupTableType() {
  BlockType t;
  t.name = "LookupTable";
  t.category = "Lookup tables";
  t.summary = "Looks up its input in a 1-D table of values at breakpoints.";
  t.doc =
      "y = T(u) element-wise, where T gives table(k) at breakpoints(k) and interpolates "
      "between them. The table is `breakpoints` and `table` (one value each), or `file`: a "
      "CSV file (relative to the model file's directory unless absolute) with a header line "
      "naming the two columns, then one row per breakpoint, the breakpoint then its value, in "
      "any order, each breakpoint once; every number a finite decimal. " +
      lookup::MethodsDoc() + " Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink 1-D Lookup Table (interpolation Flat, Nearest, Linear point-slope, Cubic "
      "spline; extrapolation Clip, Linear, Cubic spline). Differs: no Akima spline or Linear "
      "Lagrange, double data only, breakpoints from parameters or a file (no input port).";
  t.params = {{"breakpoints", ParamKind::kVector, "", "input values, strictly increasing (n >= 2)"},
              {"table", ParamKind::kVector, "", "output values at the breakpoints (n)"},
              lookup::FileParamSpec("CSV file with the table instead of breakpoints and table: a "
                                    "header, then rows 'breakpoint, value'"),
              lookup::InterpolationParamSpec(),
              lookup::ExtrapolationParamSpec(),
              lookup::SplineEndsParamSpec()};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the table at each element of u"}};
  t.create = [](const Params& p) { return std::make_unique<LookupTable>(p); };
  return t;
}

}  // namespace twinblocks::blocks
