#pragma once

#include <Eigen/Core>

#include "blocks/param.h"

namespace twinblocks::blocks::internal {

/// The matrices of a linear state-space block (StateSpace, DiscreteStateSpace), read from its
/// parameters A, B, C, D and x0 and checked against one another. Sizes: A (n x n), B (n x m),
/// C (p x n), D (p x m), x0 (n).
struct StateSpaceMatrices {
  Eigen::MatrixXd a, b, c, d;
  Eigen::VectorXd x0;
  bool feedthrough = false;  ///< D has a nonzero entry

  int num_states() const { return static_cast<int>(a.rows()); }
  int num_inputs() const { return static_cast<int>(b.cols()); }
  int num_outputs() const { return static_cast<int>(c.rows()); }
};

/// A vector [c1, c2, ...] for C (or for a one-row B or D) is read as a row; D = 0 means
/// zeros(p, m); x0 is a scalar (every state) or n values.
/// @throws BlockError naming the matrix whose size does not fit.
StateSpaceMatrices ReadStateSpaceMatrices(const Params& params);

}  // namespace twinblocks::blocks::internal
