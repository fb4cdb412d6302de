#include "blocks/signal/constant.h"

#include <memory>

namespace twinblocks::blocks {

Constant::Constant(const Params& params) {
  const Eigen::MatrixXd v = params.Matrix("value");
  if (v.size() == 0) throw BlockError("parameter 'value' is empty", "value");
  for (int r = 0; r < v.rows(); ++r) {
    for (int col = 0; col < v.cols(); ++col) value_.push_back(v(r, col));
  }
  DeclareOutput("y", static_cast<int>(value_.size()));
  // A matrix (more than one row and column) is a matrix signal for the matrix blocks; a
  // vector, written as a row or a column, is a plain vector.
  if (v.rows() > 1 && v.cols() > 1) {
    SetOutputShape(0, SignalShape::Matrix(static_cast<int>(v.rows()), static_cast<int>(v.cols())));
  }
  DeclareSampleTime(SampleTime::Constant());
}

void Constant::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int n = static_cast<int>(value_.size());
  for (int i = 0; i < n; ++i) y[i] = value_[i];
}

BlockType ConstantType() {
  BlockType t;
  t.name = "Constant";
  t.category = "Sources";
  t.summary = "Outputs a constant scalar, vector or matrix.";
  t.doc =
      "y = value. The width of y is the number of elements of `value`; a matrix is output "
      "row by row (row-major), as a matrix signal that the matrix blocks (MatrixMultiply, "
      "Transpose, ...) read with its rows and columns. The sample time is constant: y is computed "
      "once, at the start "
      "of the run, and blocks driven only by constants are computed once too.";
  t.reference = "Simulink Constant";
  t.params = {{"value", ParamKind::kMatrix, "1", "the output: scalar, vector or matrix"}};
  t.outputs = {{"y", "the constant, width numel(value)"}};
  t.create = [](const Params& p) { return std::make_unique<Constant>(p); };
  return t;
}

}  // namespace twinblocks::blocks
