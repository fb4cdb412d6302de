#include "blocks/math/matrix_multiply.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "blocks/math/detail/dense_matrix.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

MatrixMultiply::MatrixMultiply(const Params& params) {
  for (bool divide : internal::ParseOperatorList(params.String("ops"), "ops", '*', '/')) {
    divide_.push_back(divide ? 1 : 0);
  }
  CheckPortCountParam(static_cast<std::int64_t>(divide_.size()), "ops");
  for (int j = 0; j < static_cast<int>(divide_.size()); ++j) {
    DeclareInput(internal::NumberedPort("u", j));
  }
  DeclareOutput("y");
}

void MatrixMultiply::DoConfigure(const std::vector<int>& input_widths) {
  factors_.clear();
  scalars_.clear();
  const int m = num_inputs();
  for (int j = 0; j < m; ++j) {
    const int w = input_widths[j];
    if (w == 1) {
      scalars_.push_back(j);
      continue;
    }
    const SignalShape& s = in_shape(j);
    factors_.push_back({j, s.RowsFor(w), s.ColsFor(w), divide_[j] != 0});
  }
  // A plain vector first in the chain is a row where a column does not fit and a row does
  // (x' A written as x A), as Simulink reads 1-D vectors.
  if (factors_.size() > 1 && in_shape(factors_[0].input).is_plain() && !factors_[0].invert) {
    Factor& f = factors_[0];
    const int next_rows = factors_[1].rows;
    if (next_rows != 1 && next_rows == f.rows) std::swap(f.rows, f.cols);
  }
  int rows = 1, cols = 1;
  product_size_ = 1;
  square_size_ = 0;
  std::string so_far;
  for (size_t k = 0; k < factors_.size(); ++k) {
    const Factor& f = factors_[k];
    const std::string& name = input_port(f.input).name;
    if (f.invert && f.rows != f.cols) {
      throw BlockError("input '" + name + "' is inverted ('/' in ops), so it must be square, got " +
                           internal::DimsText(f.rows, f.cols) +
                           (in_shape(f.input).is_plain() ? " (a vector)" : ""),
                       "ops", name);
    }
    if (f.invert) square_size_ = std::max(square_size_, f.rows * f.cols);
    if (k == 0) {
      rows = f.rows;
      cols = f.cols;
    } else {
      if (f.rows != cols) {
        throw BlockError("cannot multiply " + so_far + " (" + internal::DimsText(rows, cols) +
                             ") by '" + name + "' (" + internal::DimsText(f.rows, f.cols) +
                             "): the columns of the one must be " + "the rows of the other",
                         {}, name);
      }
      cols = f.cols;
    }
    so_far = k == 0 ? "'" + name + "'" : "the product up to '" + name + "'";
    product_size_ = std::max(product_size_, rows * cols);
  }
  SetOutputWidth(0, rows * cols);
  SetOutputShape(0, SignalShape::Matrix(rows, cols));
  DeclareDWork(2 * std::int64_t{product_size_} + 2 * std::int64_t{square_size_});
}

void MatrixMultiply::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int n = out_width(0);
  double scale = 1.0;
  for (int j : scalars_) {
    const double u = in(c, j)[0];
    scale = divide_[j] ? scale / u : scale * u;
  }
  double* buffers[2] = {dwork(c), dwork(c) + product_size_};
  double* square = dwork(c) + 2 * product_size_;
  double* inverse = square + square_size_;
  const double* product = nullptr;
  int rows = 1, cols = 1, next = 0;
  for (size_t k = 0; k < factors_.size(); ++k) {
    const Factor& f = factors_[k];
    const double* u = in(c, f.input);
    if (f.invert) {
      std::copy(u, u + f.rows * f.cols, square);
      if (!internal::InvertRowMajor(square, f.rows, inverse)) {
        if (c.major) {
          throw std::runtime_error("input '" + input_port(f.input).name +
                                   "' is singular: it has no inverse ('/' in ops)");
        }
        // Inside a solver step: NaN, which the solver's checks reject for a shorter step.
        std::fill(y, y + n, std::numeric_limits<double>::quiet_NaN());
        return;
      }
      u = inverse;
    }
    if (k == 0) {
      std::copy(u, u + f.rows * f.cols, buffers[0]);
      product = buffers[0];
      next = 1;
      rows = f.rows;
    } else {
      internal::MultiplyRowMajor(product, u, rows, cols, f.cols, buffers[next]);
      product = buffers[next];
      next ^= 1;
    }
    cols = f.cols;
  }
  if (product == nullptr) {
    y[0] = scale;
    return;
  }
  for (int i = 0; i < n; ++i) y[i] = scale * product[i];
}

BlockType MatrixMultiplyType() {
  BlockType t;
  t.name = "MatrixMultiply";
  t.category = "Matrix operations";
  t.summary = "Multiplies its inputs as matrices; '/' multiplies by an inverse.";
  t.doc =
      "y = u1 (*|/) u2 (*|/) ... as matrix products, from left to right, where `/` multiplies "
      "by the input's inverse (ops=\"/*\" gives inv(u1) u2, the solution of u1 y = u2). Inputs "
      "are read with their shapes: a matrix signal (Constant of a matrix, Reshape, Transpose, "
      "another MatrixMultiply; stored row by row) with its rows and columns, a plain vector as "
      "a column (n x 1), except first in the chain where only a row (1 x n) fits, and a "
      "scalar as a factor. The columns of each product must be the rows of the next input. y "
      "is the rows x cols product, a matrix signal (a plain vector when it has one column). "
      "An inverted input must be square; one that is singular at a major step stops the run "
      "(the time and the block in the message), inside a solver step it gives NaN, which the "
      "solver rejects. Inherited sample time; direct feedthrough; no allocation while "
      "stepping (Gauss-Jordan elimination with partial pivoting in the block's work memory).";
  t.reference =
      "Simulink Product block with Multiplication Matrix(*) (the Matrix Multiply block); '/' "
      "as its matrix inverse. Differs: matrices are stored row by row, not column-major";
  t.params = {{"ops", ParamKind::kString, "**",
               "one character per input: '*' multiply, '/' multiply by the inverse"}};
  t.inputs = {{"u1..un", "matrices (by their shape), vectors (columns) or scalars"}};
  t.outputs = {{"y", "the product, rows x cols, row by row"}};
  t.create = [](const Params& p) { return std::make_unique<MatrixMultiply>(p); };
  return t;
}

}  // namespace twinblocks::blocks
