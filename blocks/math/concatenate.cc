#include "blocks/math/concatenate.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "blocks/math/detail/dense_matrix.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Concatenate::Concatenate(const Params& params) {
  const int n = params.Integer("inputs");
  if (n < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(n, "inputs");
  multidimensional_ = params.Word("mode") == "multidimensional";
  const int dimension = params.Integer("dimension");
  if (dimension != 1 && dimension != 2) {
    throw BlockError(
        "parameter 'dimension' must be 1 (rows: on top of each other) or 2 "
        "(columns: side by side), got " +
            std::to_string(dimension),
        "dimension");
  }
  side_by_side_ = multidimensional_ && dimension == 2;
  for (int j = 0; j < n; ++j) DeclareInput(internal::NumberedPort("u", j));
  DeclareOutput("y");
}

void Concatenate::DoConfigure(const std::vector<int>& input_widths) {
  const int m = num_inputs();
  std::int64_t total = 0;
  for (int w : input_widths) total += w;
  if (total > std::numeric_limits<int>::max()) total = std::numeric_limits<int>::max();
  SetOutputWidth(0, static_cast<int>(total));
  if (!multidimensional_) {
    for (int j = 0; j < m; ++j) {
      const SignalShape& s = in_shape(j);
      if (s.is_matrix() && s.rows > 1) {
        throw BlockError("input '" + input_port(j).name + "' is a " + s.Describe() +
                             "; mode 'vector' joins vectors (mode 'multidimensional' "
                             "joins matrices)",
                         "mode", input_port(j).name);
      }
    }
    SetOutputShape(0, SignalShape::Vector());
    return;
  }
  // Each input as the matrix blocks read it: a plain vector is a column.
  const int along = side_by_side_ ? 0 : 1;  // the dimension that must agree: rows or cols
  int agree = -1, stacked = 0;
  in_cols_.clear();
  for (int j = 0; j < m; ++j) {
    const int w = input_widths[j];
    const int r = in_shape(j).RowsFor(w), col = in_shape(j).ColsFor(w);
    const int must = along == 0 ? r : col;
    if (agree < 0) agree = must;
    if (must != agree) {
      throw BlockError("input '" + input_port(j).name + "' is " + internal::DimsText(r, col) +
                           ", but " +
                           (side_by_side_ ? "side by side (dimension 2) the inputs need "
                                            "equal row counts, and the first has " +
                                                std::to_string(agree) + " rows"
                                          : "stacked (dimension 1) the inputs need equal "
                                            "column counts, and the first has " +
                                                std::to_string(agree) + " columns"),
                       {}, input_port(j).name);
    }
    stacked += along == 0 ? col : r;
    in_cols_.push_back(col);
  }
  rows_ = side_by_side_ ? agree : stacked;
  SetOutputShape(
      0, side_by_side_ ? SignalShape::Matrix(agree, stacked) : SignalShape::Matrix(stacked, agree));
}

void Concatenate::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int m = num_inputs();
  if (!side_by_side_) {
    // Row-major storage: stacking rows, like joining vectors, is appending.
    for (int j = 0; j < m; ++j) {
      const double* u = in(c, j);
      y = std::copy(u, u + in_width(j), y);
    }
    return;
  }
  const int total_cols = out_width(0) / std::max(rows_, 1);
  int first_col = 0;
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    const int cols = in_cols_[j];
    for (int i = 0; i < rows_; ++i) {
      std::copy(u + i * cols, u + (i + 1) * cols, y + i * total_cols + first_col);
    }
    first_col += cols;
  }
}

BlockType ConcatenateType() {
  BlockType t;
  t.name = "Concatenate";
  t.category = "Matrix operations";
  t.summary = "Joins its inputs into one vector or matrix.";
  t.doc =
      "mode vector: y = [u1; u2; ...; un], a plain vector whose width is the sum of the "
      "inputs' (as Mux; a matrix input is refused). mode multidimensional: the inputs as "
      "matrices (a plain vector is a column), stacked along `dimension` 1 (on top of each "
      "other: equal column counts, y has the sum of their rows) or 2 (side by side: equal row "
      "counts, y has the sum of their columns); y is a matrix signal, stored row by row. "
      "Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Vector Concatenate and Matrix Concatenate (mode vector or multidimensional "
      "array, concatenate dimension 1 or 2)";
  t.params = {{"inputs", ParamKind::kScalar, "2", "number of inputs"},
              {"mode",
               ParamKind::kWord,
               "vector",
               "vector (join as a vector) or multidimensional (stack matrices)",
               {"vector", "multidimensional"}},
              {"dimension", ParamKind::kScalar, "1",
               "multidimensional: 1 stacks rows (vertically), 2 columns (side by side)"}};
  t.inputs = {{"u1..un", "the parts"}};
  t.outputs = {{"y", "the joined signal"}};
  t.create = [](const Params& p) { return std::make_unique<Concatenate>(p); };
  return t;
}

}  // namespace twinblocks::blocks
