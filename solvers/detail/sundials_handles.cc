#include "solvers/detail/sundials_handles.h"

#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <stdexcept>

namespace twinblocks::solvers::internal {

void ContextDeleter::operator()(SUNContext ctx) const { SUNContext_Free(&ctx); }
void NVectorDeleter::operator()(N_Vector v) const { N_VDestroy(v); }
void MatrixDeleter::operator()(SUNMatrix m) const { SUNMatDestroy(m); }
void LinearSolverDeleter::operator()(SUNLinearSolver ls) const { SUNLinSolFree(ls); }

ContextPtr MakeContext() {
  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) != 0 || ctx == nullptr) {
    throw std::runtime_error("SUNContext_Create failed");
  }
  return ContextPtr(ctx);
}

NVectorPtr MakeSerialVector(int n, SUNContext ctx) {
  N_Vector v = N_VNew_Serial(n, ctx);
  if (v == nullptr) throw std::runtime_error("N_VNew_Serial failed");
  N_VConst(0.0, v);
  return NVectorPtr(v);
}

MatrixPtr MakeDenseMatrix(int n, SUNContext ctx) {
  SUNMatrix m = SUNDenseMatrix(n, n, ctx);
  if (m == nullptr) throw std::runtime_error("SUNDenseMatrix failed");
  return MatrixPtr(m);
}

LinearSolverPtr MakeDenseLinearSolver(N_Vector y, SUNMatrix a, SUNContext ctx) {
  SUNLinearSolver ls = SUNLinSol_Dense(y, a, ctx);
  if (ls == nullptr) throw std::runtime_error("SUNLinSol_Dense failed");
  return LinearSolverPtr(ls);
}

}  // namespace twinblocks::solvers::internal
