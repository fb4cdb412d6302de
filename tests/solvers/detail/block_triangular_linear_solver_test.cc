// BlockTriangularLinearSolver, the linear solver CVODE and ARKODE use for their Newton
// matrix, through SUNDIALS' own calls: the same solution as a dense LU of the whole matrix,
// and a singular matrix a recoverable failure, as SUNDIALS' dense LU reports it.

#include "solvers/detail/block_triangular_linear_solver.h"

#include <gtest/gtest.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/LU>
#include <random>

namespace twinblocks::solvers::internal {
namespace {

// A Newton matrix A = I - gamma J of a system coupled one way: states 0-2 a stiff object that
// reads states 3-6 (two filters of two states each, which read nothing else), state 7 alone.
Eigen::MatrixXd OneWayCoupled(std::mt19937* random) {
  std::uniform_real_distribution<double> u(-5.0, 5.0);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(8, 8);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 7; ++j) J(i, j) = u(*random);
  }
  for (int f = 3; f < 7; f += 2) {
    J(f, f + 1) = 1.0;
    J(f + 1, f) = -400.0;
    J(f + 1, f + 1) = -40.0;
  }
  return Eigen::MatrixXd::Identity(8, 8) - 0.01 * J;
}

TEST(BlockTriangularLinearSolver, SolvesAsADenseLuOfTheWholeMatrix) {
  const ContextPtr context = MakeContext();
  const MatrixPtr a = MakeDenseMatrix(8, context.get());
  const NVectorPtr x = MakeSerialVector(8, context.get());
  const NVectorPtr b = MakeSerialVector(8, context.get());
  BlockTriangularLinearSolver solver(8, context.get());
  ASSERT_EQ(SUNLinSolGetType(solver.get()), SUNLINEARSOLVER_DIRECT);
  ASSERT_EQ(SUNLinSolInitialize(solver.get()), SUNLS_SUCCESS);
  std::mt19937 random(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::MatrixXd A = OneWayCoupled(&random);
    Eigen::Map<Eigen::MatrixXd>(SUNDenseMatrix_Data(a.get()), 8, 8) = A;
    const Eigen::VectorXd rhs = Eigen::VectorXd::Random(8);
    AsEigen(b.get()) = rhs;
    ASSERT_EQ(SUNLinSolSetup(solver.get(), a.get()), SUNLS_SUCCESS);
    ASSERT_EQ(SUNLinSolSolve(solver.get(), a.get(), x.get(), b.get(), 0.0), SUNLS_SUCCESS);
    const Eigen::VectorXd expected = A.partialPivLu().solve(rhs);
    EXPECT_LT((AsEigen(x.get()) - expected).norm(), 1e-12 * expected.norm()) << trial;
    EXPECT_EQ(AsEigen(b.get()), rhs) << "the right-hand side is left alone";
  }
}

TEST(BlockTriangularLinearSolver, ASingularMatrixIsARecoverableFailure) {
  const ContextPtr context = MakeContext();
  const MatrixPtr a = MakeDenseMatrix(3, context.get());
  BlockTriangularLinearSolver solver(3, context.get());
  Eigen::Map<Eigen::MatrixXd> A(SUNDenseMatrix_Data(a.get()), 3, 3);
  A << 1, 2, 0,  //
      2, 4, 0,   //
      0, 1, 1;
  const int flag = SUNLinSolSetup(solver.get(), a.get());
  EXPECT_GT(flag, 0);  // positive: the solver retries with a smaller step
  EXPECT_EQ(SUNLinSolLastFlag(solver.get()), 1);
  A(1, 1) = 5.0;
  EXPECT_EQ(SUNLinSolSetup(solver.get(), a.get()), SUNLS_SUCCESS);
}

}  // namespace
}  // namespace twinblocks::solvers::internal
