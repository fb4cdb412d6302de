#include "blocks/signal/state_space.h"

#include <memory>
#include <string>
#include <utility>

#include "blocks/signal/detail/absolute_tolerance.h"
#include "blocks/signal/detail/state_space_matrices.h"

namespace twinblocks::blocks {

StateSpace::StateSpace(const Params& params) {
  internal::StateSpaceMatrices m = internal::ReadStateSpaceMatrices(params);
  a_ = std::move(m.a);
  b_ = std::move(m.b);
  c_ = std::move(m.c);
  d_ = std::move(m.d);
  x0_ = std::move(m.x0);
  feedthrough_ = m.feedthrough;
  const int n = static_cast<int>(a_.rows());
  DeclareInput("u", static_cast<int>(b_.cols()), feedthrough_ ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y", static_cast<int>(c_.rows()));
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
