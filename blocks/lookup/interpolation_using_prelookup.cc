#include "blocks/lookup/interpolation_using_prelookup.h"

#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "blocks/lookup/detail/lookup_params.h"
#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

namespace {

lookup::GridInterpolant MakePrelookupTable(const Params& p) {
  std::vector<lookup::Breakpoints> axes;
  std::vector<double> values;
  if (lookup::TableFromFile(p, {"table"})) {
    if (p.has("sizes")) {
      throw BlockError("give 'sizes' only with 'table' (a file's columns give the sizes)", "sizes");
    }
    const std::string path = lookup::TableFilePath(p);
    lookup::TableData data = lookup::ReadTableRows(path, 0);
    axes = lookup::FileBreakpoints(data, path);
    values = std::move(data.values);
  } else {
    values = lookup::FiniteValues(p.Vector("table"), "table");
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(values.size());
    if (!p.has("sizes") && n < 2) {
      throw BlockError("parameter 'table' must hold at least 2 values, got " + std::to_string(n),
                       "table");
    }
    const std::vector<int> sizes = lookup::ReadSizes(p, static_cast<int>(n));
    const std::ptrdiff_t grid = lookup::GridSize(sizes, std::numeric_limits<std::ptrdiff_t>::max());
    if (grid != n) {
      std::string text;
      for (std::size_t j = 0; j < sizes.size(); ++j) {
        text += (j > 0 ? " x " : "") + std::to_string(sizes[j]);
      }
      throw BlockError("parameter 'table' has " + std::to_string(n) + " values, but 'sizes' " +
                           text + " asks for " + (grid < 0 ? "too many" : std::to_string(grid)) +
                           " (one value per grid point, the first dimension fastest)",
                       "table");
    }
    // The breakpoints themselves are the Prelookup blocks': only their counts matter here.
    for (int nj : sizes) {
      std::vector<double> index(nj);
      for (int i = 0; i < nj; ++i) index[i] = i;
      axes.emplace_back(std::move(index), "parameter 'sizes'", "sizes");
    }
  }
  lookup::CheckTableSize(static_cast<std::ptrdiff_t>(values.size()), static_cast<int>(axes.size()),
                         lookup::Interpolation::kLinear, p.has("file") ? "file" : "table");
  return lookup::GridInterpolant(std::move(axes), std::move(values), lookup::Interpolation::kLinear,
                                 lookup::Extrapolation::kLinear);
}

}  // namespace

InterpolationUsingPrelookup::InterpolationUsingPrelookup(const Params& params)
    : table_(MakePrelookupTable(params)), clip_(params.Word("extrapolation") == "clip") {
  for (int j = 0; j < table_.num_dimensions(); ++j) {
    DeclareInput(internal::NumberedPort("k", j));
    DeclareInput(internal::NumberedPort("f", j));
  }
  DeclareOutput("y");
}

void InterpolationUsingPrelookup::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  strides_.clear();
  for (int w : input_widths) strides_.push_back(internal::StrideOf(w));
}

void InterpolationUsingPrelookup::ThrowBadIndex(int dimension, double k) const {
  const std::string port = internal::NumberedPort("k", dimension);
  throw BlockError("input '" + port + "' is " + FormatValue(k) + ", not an interval of dimension " +
                       std::to_string(dimension + 1) + " (a whole number from 0 to " +
                       std::to_string(table_.axis(dimension).size() - 2) + ")",
                   {}, port);
}

void InterpolationUsingPrelookup::DoCalcOutputs(Context& c, int stage) const {
  const int d = table_.num_dimensions();
  const int w = out_width(0);
  double* y = out(c, 0);
  int k[lookup::kMaxDimensions];
  double f[lookup::kMaxDimensions];
  for (int i = 0; i < w; ++i) {
    for (int j = 0; j < d; ++j) {
      const double kj = in(c, 2 * j)[i * strides_[2 * j]];
      double fj = in(c, 2 * j + 1)[i * strides_[2 * j + 1]];
      const int last = table_.axis(j).last_interval();
      // n - 1 with f = 0 (the last breakpoint, as Simulink's Prelookup may give it) is the
      // end of the last interval.
      if (!(kj >= 0.0 && kj <= last + 1) || kj != std::floor(kj)) ThrowBadIndex(j, kj);
      int kk = static_cast<int>(kj);
      if (kk > last) {
        kk = last;
        fj += 1.0;
      }
      if (clip_) fj = fj < 0.0 ? 0.0 : (fj > 1.0 ? 1.0 : fj);
      k[j] = kk;
      f[j] = fj;
    }
    y[i] = table_.Multilinear(k, f);
  }
}

BlockType InterpolationUsingPrelookupType() {
  BlockType t;
  t.name = "InterpolationUsingPrelookup";
  t.category = "Lookup tables";
  t.summary = "Interpolates a d-D table at the intervals and fractions of Prelookup blocks.";
  t.doc =
      "y = sum over the 2^d corners of the cell (k1, ..., kd) of prod_j (f_j or 1 - f_j) "
      "times the corner's value, element-wise: multilinear interpolation at the intervals "
      "k_j (0-based) and fractions f_j that Prelookup blocks give, one pair of inputs per "
      "dimension, so that several tables on the same breakpoints share one search. With the "
      "Prelookups' breakpoints, the result equals LookupTableND's linear interpolation. The "
      "table is `sizes` ([n1, ..., nd]; left out, one dimension) and `table` (n1 x ... x nd "
      "values, the first dimension fastest, as LookupTableND), or `file` (LookupTableND's CSV "
      "rows; its breakpoints only give the sizes). extrapolation=clip keeps each f_j in "
      "[0, 1]; linear uses f_j as it comes. An index that is not a whole number from 0 to "
      "n_j - 1 stops the run (n_j - 1 is taken as the end of the last interval). Inherited "
      "sample time; direct feedthrough.";
  t.reference =
      "Simulink Interpolation Using Prelookup (Linear point-slope; extrapolation Clip, "
      "Linear). Differs: linear interpolation only, separate k and f inputs (no bus), no "
      "subtable selection, double data only.";
  t.params = {
      {"sizes", ParamKind::kVector, "",
       "breakpoints per dimension [n1, ..., nd], each >= 2; left out: one dimension"},
      {"table", ParamKind::kVector, "", "n1 x ... x nd values, the first dimension fastest"},
      lookup::FileParamSpec("CSV file with the table instead of sizes and table: a header, "
                            "then rows 'u1, ..., ud, value' (as LookupTableND)"),
      {"extrapolation",
       ParamKind::kWord,
       "linear",
       "fractions outside [0, 1]: clip or linear",
       {"linear", "clip"}}};
  t.inputs = {{"k1..kd", "interval index of each dimension (a Prelookup's k)"},
              {"f1..fd",
               "fraction in that interval (a Prelookup's f); inputs in the order k1, "
               "f1, k2, f2, ..."}};
  t.outputs = {{"y", "the interpolated table, the common width (scalars expand)"}};
  t.create = [](const Params& p) { return std::make_unique<InterpolationUsingPrelookup>(p); };
  return t;
}

}  // namespace twinblocks::blocks
