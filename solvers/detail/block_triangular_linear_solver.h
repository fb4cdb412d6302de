#pragma once

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "solvers/detail/iteration_matrix.h"
#include "solvers/detail/sundials_handles.h"

namespace twinblocks::solvers::internal {

/// A direct SUNDIALS linear solver for the Newton matrix A = I - gamma J of CVODE and ARKODE
/// (and IDA's dF/dy + cj dF/dy': any square A), given as a dense SUNMatrix, factored in
/// block-triangular order: the strongly connected components of A's graph as diagonal blocks, each
/// factored by LU with partial pivoting, the couplings between them left to the block substitution
/// (IterationMatrix, Duff & Reid's block triangular form as KLU uses it). A diagram's states are
/// mostly coupled one way (a filter drives a joint that pushes an object): G2's 37 states are one
/// 13 x 13 block and twelve 2 x 2 ones, where SUNDIALS' dense LU factors 37 x 37. det A is the
/// product of the blocks' determinants, so A is singular exactly when a block is. Allocates only in
/// its constructor.
class BlockTriangularLinearSolver {
 public:
  BlockTriangularLinearSolver(int nx, SUNContext ctx);
  BlockTriangularLinearSolver(const BlockTriangularLinearSolver&) = delete;
  BlockTriangularLinearSolver& operator=(const BlockTriangularLinearSolver&) = delete;

  /// The SUNLinearSolver to attach (CVodeSetLinearSolver & co.); it lives as long as this.
  SUNLinearSolver get() const { return handle_.get(); }

 private:
  static int Setup(SUNLinearSolver s, SUNMatrix a);
  static int Solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, double tol);
  static sunindextype LastFlag(SUNLinearSolver s);
  static int Free(SUNLinearSolver s);

  IterationMatrix w_;
  sunindextype last_flag_ = 0;
  LinearSolverPtr handle_;
};

}  // namespace twinblocks::solvers::internal
