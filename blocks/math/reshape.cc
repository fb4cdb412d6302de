#include "blocks/math/reshape.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "common/format_value.h"

namespace twinblocks::blocks {

Reshape::Reshape(const Params& params) {
  const std::string& output = params.Word("output");
  if (output == "column") output_ = Output::kColumn;
  if (output == "row") output_ = Output::kRow;
  if (output == "custom") output_ = Output::kCustom;
  const Eigen::VectorXd d = params.Vector("dimensions");
  for (int i = 0; i < d.size(); ++i) {
    if (!(d(i) >= 1.0) || d(i) != std::floor(d(i)) || d(i) > 1e9) {
      throw BlockError(
          "parameter 'dimensions' must hold whole numbers >= 1, got " + FormatValue(d(i)),
          "dimensions");
    }
  }
  if (d.size() != 2) {
    throw BlockError(
        "parameter 'dimensions' must be [rows, cols], got " + std::to_string(d.size()) + " numbers",
        "dimensions");
  }
  rows_ = static_cast<int>(d(0));
  cols_ = static_cast<int>(d(1));
  DeclareInput("u");
  DeclareOutput("y");
}

void Reshape::DoConfigure(const std::vector<int>& input_widths) {
  const int w = input_widths[0];
  SetOutputWidth(0, w);
  switch (output_) {
    case Output::kVector:
    case Output::kColumn:
      SetOutputShape(0, SignalShape::Vector());
      return;
    case Output::kRow:
      SetOutputShape(0, SignalShape::Matrix(1, w));
      return;
    case Output::kCustom:
      if (std::int64_t{rows_} * cols_ != w) {
        throw BlockError("parameter 'dimensions' [" + std::to_string(rows_) + ", " +
                             std::to_string(cols_) + "] holds " +
                             std::to_string(std::int64_t{rows_} * cols_) +
                             " elements, but input 'u' has width " + std::to_string(w),
                         "dimensions", "u");
      }
      SetOutputShape(0, SignalShape::Matrix(rows_, cols_));
      return;
  }
}

void Reshape::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  std::copy(u, u + in_width(0), out(c, 0));
}

BlockType ReshapeType() {
  BlockType t;
  t.name = "Reshape";
  t.category = "Matrix operations";
  t.summary = "Gives a signal other dimensions: vector, column, row or rows x cols.";
  t.doc =
      "y = u, read with other dimensions. `output`: vector (a plain vector), column (n x 1, "
      "which is a plain vector here), row (1 x n), or custom (`dimensions` [rows, cols], whose "
      "product must be the width of u). The values keep their order: matrix signals are "
      "stored row by row, so [1, 2, 3, 4, 5, 6] as 2 x 3 is [[1, 2, 3], [4, 5, 6]] (NumPy's "
      "reshape; MATLAB's column-major reshape would give [[1, 3, 5], [2, 4, 6]]). A bus going "
      "in comes out as plain values. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Reshape (output dimensionality 1-D array, column, row, customize). Differs: "
      "row-major order, as matrix signals are stored here";
  t.params = {{"output",
               ParamKind::kWord,
               "vector",
               "the dimensions of y: vector, column, row or custom",
               {"vector", "column", "row", "custom"}},
              {"dimensions", ParamKind::kVector, "[1, 1]", "[rows, cols] for output=custom"}};
  t.inputs = {{"u", "any signal"}};
  t.outputs = {{"y", "u with the new dimensions"}};
  t.create = [](const Params& p) { return std::make_unique<Reshape>(p); };
  return t;
}

}  // namespace twinblocks::blocks
