#include "blocks/signal/detail/state_space_matrices.h"

#include <string>

#include "blocks/block_error.h"

namespace twinblocks::blocks::internal {

namespace {

std::string Shape(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

/// A vector `[a, b]` evaluates to a column; read it as a row where a row is due.
Eigen::MatrixXd AsRowIfNeeded(const Eigen::MatrixXd& m, int rows) {
  if (m.rows() != rows && m.cols() == 1 && m.rows() > 1 && rows == 1) return m.transpose();
  return m;
}

}  // namespace

StateSpaceMatrices ReadStateSpaceMatrices(const Params& params) {
  StateSpaceMatrices s;
  s.a = params.Matrix("A");
  s.b = params.Matrix("B");
  s.c = params.Matrix("C");
  s.d = params.Matrix("D");
  if (s.a.rows() != s.a.cols()) {
    throw BlockError("A must be square, got " + Shape(s.a), "A");
  }
  const int n = static_cast<int>(s.a.rows());
  if (n == 0) {
    s.b.resize(0, s.d.cols());
    s.c.resize(s.d.rows(), 0);
  }
  s.b = AsRowIfNeeded(s.b, n);
  if (s.b.rows() != n) {
    throw BlockError("B must have " + std::to_string(n) + " rows (as A), got " + Shape(s.b), "B");
  }
  const int m = static_cast<int>(s.b.cols());
  if (s.c.cols() != n) {
    if (s.c.cols() == 1 && s.c.rows() == n) {
      s.c.transposeInPlace();  // [c1, c2, ...]: one output row
    } else {
      throw BlockError("C must have " + std::to_string(n) + " columns (as A), got " + Shape(s.c),
                       "C");
    }
  }
  const int p = static_cast<int>(s.c.rows());
  if (s.d.size() == 1 && s.d(0, 0) == 0.0) {
    s.d = Eigen::MatrixXd::Zero(p, m);
  }
  s.d = AsRowIfNeeded(s.d, p);
  if (s.d.rows() != p || s.d.cols() != m) {
    throw BlockError("D must be " + std::to_string(p) + "x" + std::to_string(m) +
                         " (rows of C x columns of B), got " + Shape(s.d),
                     "D");
  }
  const Eigen::VectorXd x0 = params.Vector("x0");
  if (x0.size() == 1) {
    s.x0 = Eigen::VectorXd::Constant(n, x0(0));
  } else if (x0.size() == n) {
    s.x0 = x0;
  } else {
    throw BlockError("x0 must have " + std::to_string(n) + " elements (or be a scalar), got " +
                         std::to_string(x0.size()),
                     "x0");
  }
  s.feedthrough = !s.d.isZero(0.0);
  return s;
}

}  // namespace twinblocks::blocks::internal
