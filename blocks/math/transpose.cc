#include "blocks/math/transpose.h"

#include <memory>

namespace twinblocks::blocks {

Transpose::Transpose(const Params& params) {
  DeclareInput("u");
  DeclareOutput("y");
}

void Transpose::DoConfigure(const std::vector<int>& input_widths) {
  const int w = input_widths[0];
  rows_ = in_shape(0).RowsFor(w);
  cols_ = in_shape(0).ColsFor(w);
  SetOutputWidth(0, w);
  SetOutputShape(0, SignalShape::Matrix(cols_, rows_));
}

void Transpose::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const int r = rows_, n = cols_;
  for (int i = 0; i < r; ++i) {
    for (int j = 0; j < n; ++j) y[j * r + i] = u[i * n + j];
  }
}

BlockType TransposeType() {
  BlockType t;
  t.name = "Transpose";
  t.category = "Matrix operations";
  t.summary = "Transposes a matrix signal.";
  t.doc =
      "y = u^T: y(j, i) = u(i, j). A rows x cols matrix signal (stored row by row) gives a "
      "cols x rows one; a plain vector, which the matrix blocks read as a column, gives a "
      "1 x n row (the same values), and a 1 x n row gives a plain vector back. Inherited sample "
      "time; direct feedthrough.";
  t.reference = "Simulink Math Function block with Function transpose (u.')";
  t.inputs = {{"u", "a matrix signal or a vector"}};
  t.outputs = {{"y", "u transposed, cols x rows"}};
  t.create = [](const Params& p) { return std::make_unique<Transpose>(p); };
  return t;
}

}  // namespace twinblocks::blocks
