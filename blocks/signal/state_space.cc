#include "blocks/signal/state_space.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/absolute_tolerance.h"

namespace twinblocks::blocks {

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

StateSpace::StateSpace(const Params& params)
    : a_(params.Matrix("A")),
      b_(params.Matrix("B")),
      c_(params.Matrix("C")),
      d_(params.Matrix("D")) {
  if (a_.rows() != a_.cols()) {
    throw BlockError("A must be square, got " + Shape(a_), "A");
  }
  const int n = static_cast<int>(a_.rows());
  if (n == 0) {
    b_.resize(0, d_.cols());
    c_.resize(d_.rows(), 0);
  }
  b_ = AsRowIfNeeded(b_, n);
  if (b_.rows() != n) {
    throw BlockError("B must have " + std::to_string(n) + " rows (as A), got " + Shape(b_), "B");
  }
  const int m = static_cast<int>(b_.cols());
  if (c_.cols() != n) {
    if (c_.cols() == 1 && c_.rows() == n) {
      c_.transposeInPlace();  // [c1, c2, ...]: one output row
    } else {
      throw BlockError("C must have " + std::to_string(n) + " columns (as A), got " + Shape(c_),
                       "C");
    }
  }
  const int p = static_cast<int>(c_.rows());
  if (d_.size() == 1 && d_(0, 0) == 0.0) {
    d_ = Eigen::MatrixXd::Zero(p, m);
  }
  d_ = AsRowIfNeeded(d_, p);
  if (d_.rows() != p || d_.cols() != m) {
    throw BlockError("D must be " + std::to_string(p) + "x" + std::to_string(m) +
                         " (rows of C x columns of B), got " + Shape(d_),
                     "D");
  }
  const Eigen::VectorXd x0 = params.Vector("x0");
  if (x0.size() == 1) {
    x0_ = Eigen::VectorXd::Constant(n, x0(0));
  } else if (x0.size() == n) {
    x0_ = x0;
  } else {
    throw BlockError("x0 must have " + std::to_string(n) + " elements (or be a scalar), got " +
                         std::to_string(x0.size()),
                     "x0");
  }
  feedthrough_ = !d_.isZero(0.0);
  DeclareInput("u", m, feedthrough_ ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y", p);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareContinuousStates(n);
  const Eigen::VectorXd abs_tol = internal::ReadAbsoluteTolerance(params, "abs_tol");
  if (abs_tol.size() > 0) {
    DeclareAbsoluteTolerances(
        internal::ExpandAbsoluteTolerance(abs_tol, "abs_tol", n, "the rows of A"));
  }
}

void StateSpace::DoConfigure(const std::vector<int>& input_widths) {}

void StateSpace::DoInitialize(Context& c) const {
  Eigen::Map<Eigen::VectorXd>(this->x(c), x0_.size()) = x0_;
}

void StateSpace::DoCalcOutputs(Context& c, int stage) const {
  Eigen::Map<Eigen::VectorXd> y(out(c, 0), c_.rows());
  const Eigen::Map<const Eigen::VectorXd> x(this->x(static_cast<const Context&>(c)), a_.rows());
  y.noalias() = c_ * x;
  // Without feedthrough u may not be computed yet at this point of the step: do not read it.
  if (feedthrough_) y.noalias() += d_ * Eigen::Map<const Eigen::VectorXd>(in(c, 0), d_.cols());
}

void StateSpace::DoCalcDerivatives(Context& c) const {
  const int n = static_cast<int>(a_.rows());
  if (n == 0) return;
  Eigen::Map<Eigen::VectorXd> xdot(this->xdot(c), n);
  const Eigen::Map<const Eigen::VectorXd> x(this->x(static_cast<const Context&>(c)), n);
  const Eigen::Map<const Eigen::VectorXd> u(in(c, 0), b_.cols());
  xdot.noalias() = a_ * x;
  xdot.noalias() += b_ * u;
}

BlockType StateSpaceType() {
  BlockType t;
  t.name = "StateSpace";
  t.category = "Math and continuous";
  t.summary = "A linear state-space system.";
  t.doc =
      "x' = A x + B u, y = C x + D u, x(t0) = x0 (continuous sample time). A is n x n, B "
      "n x m, C p x n, D p x m: u has width m, y width p. A vector [c1, c2, ...] for C (or "
      "for a one-row B or D) is read as a row. D = 0 (the default) means zeros(p, m): no "
      "direct feedthrough; any nonzero D makes u direct feedthrough. x0 is a scalar "
      "(every state) or n values.";
  t.reference = "Simulink State-Space";
  t.params = {{"A", ParamKind::kMatrix, "1", "state matrix, n x n"},
              {"B", ParamKind::kMatrix, "1", "input matrix, n x m"},
              {"C", ParamKind::kMatrix, "1", "output matrix, p x n"},
              {"D", ParamKind::kMatrix, "0", "feedthrough matrix, p x m (0: none)"},
              {"x0", ParamKind::kVector, "0", "initial state, scalar or n values"},
              internal::AbsoluteToleranceParam("abs_tol", "the states")};
  t.inputs = {{"u", "input, width m"}};
  t.outputs = {{"y", "output, width p"}};
  t.create = [](const Params& p) { return std::make_unique<StateSpace>(p); };
  return t;
}

}  // namespace twinblocks::blocks
