#include "solvers/detail/block_triangular_linear_solver.h"

#include <sunmatrix/sunmatrix_dense.h>

#include <stdexcept>

namespace twinblocks::solvers::internal {

namespace {

BlockTriangularLinearSolver* Self(SUNLinearSolver s) {
  return static_cast<BlockTriangularLinearSolver*>(s->content);
}

}  // namespace

BlockTriangularLinearSolver::BlockTriangularLinearSolver(int nx, SUNContext ctx) : w_(nx) {
  handle_.reset(SUNLinSolNewEmpty(ctx));
  if (!handle_) throw std::runtime_error("SUNLinSolNewEmpty failed (out of memory)");
  SUNLinearSolver s = handle_.get();
  s->content = this;
  s->ops->gettype = [](SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; };
  s->ops->getid = [](SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; };
  s->ops->initialize = [](SUNLinearSolver) { return SUNLS_SUCCESS; };
  s->ops->setup = &BlockTriangularLinearSolver::Setup;
  s->ops->solve = &BlockTriangularLinearSolver::Solve;
  s->ops->lastflag = &BlockTriangularLinearSolver::LastFlag;
  s->ops->free = &BlockTriangularLinearSolver::Free;
}

int BlockTriangularLinearSolver::Setup(SUNLinearSolver s, SUNMatrix a) {
  BlockTriangularLinearSolver* self = Self(s);
  self->w_.TakeNewtonMatrix(SUNDenseMatrix_Data(a));
  // A singular or non-finite A is recoverable, as for SUNDIALS' dense LU: the solver retries
  // with a smaller step.
  self->last_flag_ = self->w_.Factor(1.0) ? 0 : 1;
  return self->last_flag_ == 0 ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
}

int BlockTriangularLinearSolver::Solve(SUNLinearSolver s, SUNMatrix, N_Vector x, N_Vector b,
                                       double) {
  Eigen::Map<Eigen::VectorXd> y = AsEigen(x);
  y = AsEigen(b);
  Self(s)->w_.Solve(y);
  Self(s)->last_flag_ = 0;
  return SUNLS_SUCCESS;
}

sunindextype BlockTriangularLinearSolver::LastFlag(SUNLinearSolver s) {
  return Self(s)->last_flag_;
}

int BlockTriangularLinearSolver::Free(SUNLinearSolver s) {
  // The object owns the handle: SUNDIALS frees only the empty shell, when the handle goes.
  s->content = nullptr;
  SUNLinSolFreeEmpty(s);
  return SUNLS_SUCCESS;
}

}  // namespace twinblocks::solvers::internal
