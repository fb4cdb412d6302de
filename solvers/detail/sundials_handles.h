#pragma once

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>
#include <memory>
#include <type_traits>

namespace twinblocks::solvers::internal {

/// Owning handles for SUNDIALS objects (they are C pointers to structs).
struct ContextDeleter {
  void operator()(SUNContext ctx) const;
};
struct NVectorDeleter {
  void operator()(N_Vector v) const;
};
struct MatrixDeleter {
  void operator()(SUNMatrix m) const;
};
struct LinearSolverDeleter {
  void operator()(SUNLinearSolver ls) const;
};

using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using NVectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, NVectorDeleter>;
using MatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using LinearSolverPtr =
    std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverDeleter>;

/// Each throws std::runtime_error when SUNDIALS returns null (out of memory).
ContextPtr MakeContext();
NVectorPtr MakeSerialVector(int n, SUNContext ctx);
MatrixPtr MakeDenseMatrix(int n, SUNContext ctx);
LinearSolverPtr MakeDenseLinearSolver(N_Vector y, SUNMatrix a, SUNContext ctx);

/// The entries of a serial N_Vector as an Eigen vector (no copy).
inline Eigen::Map<Eigen::VectorXd> AsEigen(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
}

}  // namespace twinblocks::solvers::internal
