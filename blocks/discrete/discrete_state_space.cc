#include "blocks/discrete/discrete_state_space.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DiscreteStateSpace::DiscreteStateSpace(const Params& params)
    : m_(internal::ReadStateSpaceMatrices(params)) {
  const int n = m_.num_states();
  DeclareInput("u", m_.num_inputs(), m_.feedthrough ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y", m_.num_outputs());
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/n > 0);
  DeclareDiscreteStates(n);
  DeclareDWork(n);
}

void DiscreteStateSpace::DoConfigure(const std::vector<int>& input_widths) {}

void DiscreteStateSpace::DoInitialize(Context& c) const {
  Eigen::Map<Eigen::VectorXd>(xd(c), m_.num_states()) = m_.x0;
}

void DiscreteStateSpace::DoCalcOutputs(Context& c, int stage) const {
  Eigen::Map<Eigen::VectorXd> y(out(c, 0), m_.num_outputs());
  const Eigen::Map<const Eigen::VectorXd> x(xd(static_cast<const Context&>(c)), m_.num_states());
  y.noalias() = m_.c * x;
  // Without feedthrough u may not be computed yet at this point of the step: do not read it.
  if (m_.feedthrough) {
    y.noalias() += m_.d * Eigen::Map<const Eigen::VectorXd>(in(c, 0), m_.num_inputs());
  }
}

void DiscreteStateSpace::DoUpdate(Context& c) const {
  const int n = m_.num_states();
  if (n == 0) return;
  Eigen::Map<Eigen::VectorXd> next(dwork(c), n);
  Eigen::Map<Eigen::VectorXd> x(xd(c), n);
  next.noalias() = m_.a * x;
  next.noalias() += m_.b * Eigen::Map<const Eigen::VectorXd>(in(c, 0), m_.num_inputs());
  x = next;
}

BlockType DiscreteStateSpaceType() {
  BlockType t;
  t.name = "DiscreteStateSpace";
  t.category = "Discrete and logic";
  t.summary = "A linear discrete-time state-space system.";
  t.doc =
      "At each hit t_k = offset + k Ts: y[k] = C x[k] + D u[k], then x[k+1] = A x[k] + B "
      "u[k], with x[0] = x0. A is n x n, B n x m, C p x n, D p x m: u has width m, y width "
      "p. A vector [c1, c2, ...] for C (or for a one-row B or D) is read as a row. D = 0 "
      "(the default) means zeros(p, m): no direct feedthrough; any nonzero D makes u direct "
      "feedthrough. x0 is a scalar (every state) or n values. Ts = -1 inherits the input's "
      "rate.";
  t.reference = "Simulink Discrete State-Space";
  t.params = {{"A", ParamKind::kMatrix, "1", "state matrix, n x n"},
              {"B", ParamKind::kMatrix, "1", "input matrix, n x m"},
              {"C", ParamKind::kMatrix, "1", "output matrix, p x n"},
              {"D", ParamKind::kMatrix, "0", "feedthrough matrix, p x m (0: none)"},
              {"x0", ParamKind::kVector, "0", "initial state, scalar or n values"},
              {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
              {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input, width m"}};
  t.outputs = {{"y", "output, width p"}};
  t.create = [](const Params& p) { return std::make_unique<DiscreteStateSpace>(p); };
  return t;
}

}  // namespace twinblocks::blocks
