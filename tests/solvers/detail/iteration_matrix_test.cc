// IterationMatrix against a dense LU of the whole W = I - gamma h J: its block-triangular
// order must give the same solution whatever the coupling, and find the blocks a one-way
// coupled system has.

#include "solvers/detail/iteration_matrix.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>
#include <vector>

namespace twinblocks::solvers::internal {
namespace {

// A problem whose Jacobian is a given matrix; its derivatives are never asked for.
class FixedJacobian : public OdeProblem {
 public:
  explicit FixedJacobian(Eigen::MatrixXd J) : J_(std::move(J)) {}
  int num_states() const override { return static_cast<int>(J_.rows()); }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>&,
                      Eigen::Ref<Eigen::VectorXd>) override {
    return -1;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double, const Eigen::Ref<const Eigen::VectorXd>&,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J = J_;
    return 0;
  }
  Eigen::MatrixXd& J() { return J_; }
  bool JacobianStructure(std::vector<char>* structure) const override {
    if (structure_.empty()) return false;
    *structure = structure_;
    return true;
  }
  /// Declares where J may be nonzero (nx * nx, by column); empty: nothing declared.
  void Declare(std::vector<char> structure) { structure_ = std::move(structure); }

 private:
  Eigen::MatrixXd J_;
  std::vector<char> structure_;
};

void FormFrom(FixedJacobian* problem, IterationMatrix* W) {
  const int nx = problem->num_states();
  const Eigen::VectorXd x = Eigen::VectorXd::Zero(nx);
  ASSERT_EQ(W->Form(problem, 0.0, x, x, [](const Eigen::VectorXd&, Eigen::VectorXd&) {}), 0);
}

// The largest difference between W's solution and a dense LU's, relative to the solution.
double SolveError(const Eigen::MatrixXd& J, double gamma_h, IterationMatrix* W, std::mt19937* rng) {
  const int nx = static_cast<int>(J.rows());
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Eigen::VectorXd b(nx);
  for (int i = 0; i < nx; ++i) b[i] = unit(*rng);
  const Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(nx, nx) - gamma_h * J;
  const Eigen::VectorXd expected = dense.partialPivLu().solve(b);
  Eigen::VectorXd y = b;
  W->Solve(y);
  return (y - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
}

Eigen::MatrixXd RandomMatrix(int n, std::mt19937* rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Eigen::MatrixXd A(n, n);
  for (int c = 0; c < n; ++c) {
    for (int r = 0; r < n; ++r) A(r, c) = unit(*rng);
  }
  return A;
}

TEST(IterationMatrixTest, DenseCouplingIsOneBlockAndMatchesDenseLu) {
  std::mt19937 rng(7);
  FixedJacobian problem(50.0 * RandomMatrix(9, &rng));
  IterationMatrix W(9);
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.01));
  EXPECT_EQ(W.num_blocks(), 1);
  EXPECT_LT(SolveError(problem.J(), 0.01, &W, &rng), 1e-12);
}

// A mechanism's Jacobian: angles whose rates are their velocities (q_i' = v_i, one entry in
// the row), velocities that read everything, and a chain x' = y, y' = z (z reads all) where
// only x can go (y is x's partner). The angles and x are eliminated before the factoring;
// the solution is the dense one, at several gamma h, with the structure declared or found.
TEST(IterationMatrixTest, KinematicStatesAreEliminatedAndTheSolutionIsTheDenseOne) {
  std::mt19937 rng(11);
  constexpr int n = 7;           // angles and velocities
  constexpr int nx = 2 * n + 3;  // then x, y, z
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(nx, nx);
  for (int i = 0; i < n; ++i) J(i, n + i) = i == 3 ? 2.5 : 1.0;  // one with c != 1
  J.middleRows(n, n) = 300.0 * RandomMatrix(n, &rng).replicate(1, 3).leftCols(nx);
  J(2 * n, 2 * n + 1) = 1.0;
  J(2 * n + 1, 2 * n + 2) = 1.0;
  J.row(2 * n + 2) = 10.0 * RandomMatrix(1, &rng).replicate(1, nx);
  J(2 * n + 2, 0) = 4.0;
  for (bool declared : {false, true}) {
    FixedJacobian problem(J);
    if (declared) {
      std::vector<char> structure(static_cast<size_t>(nx) * nx, 0);
      for (int c = 0; c < nx; ++c) {
        for (int r = 0; r < nx; ++r) structure[static_cast<size_t>(c) * nx + r] = J(r, c) != 0.0;
      }
      problem.Declare(structure);
    }
    IterationMatrix W(problem, JacobianMethod::kAuto);
    FormFrom(&problem, &W);
    for (double gamma_h : {1e-4, 1e-2, 1.0}) {
      ASSERT_TRUE(W.Factor(gamma_h)) << gamma_h;
      EXPECT_EQ(W.num_blocks(), 1);
      EXPECT_EQ(W.num_eliminated(), n + 1);
      EXPECT_LT(SolveError(J, gamma_h, &W, &rng), 1e-11) << gamma_h << " declared " << declared;
    }
  }
}

// One dense block of every size: the kernels unrolled for sizes up to 16 and the general
// one beyond give the dense solution.
TEST(IterationMatrixTest, EveryBlockSizeMatchesDenseLu) {
  std::mt19937 rng(3);
  for (int n = 1; n <= 20; ++n) {
    FixedJacobian problem(50.0 * RandomMatrix(n, &rng));
    IterationMatrix W(n);
    FormFrom(&problem, &W);
    ASSERT_TRUE(W.Factor(0.01)) << n;
    EXPECT_EQ(W.num_blocks(), 1) << n;
    EXPECT_LT(SolveError(problem.J(), 0.01, &W, &rng), 1e-12) << n;
  }
}

// Three groups coupled one way, a -> b -> c (a's rows read b's states, b's read c's), with
// their states interleaved: three blocks, and the dense solution. Also a fourth group of
// states that nothing reads and that read nothing: left as they are.
TEST(IterationMatrixTest, OneWayCouplingFactorsAsItsBlocks) {
  std::mt19937 rng(11);
  const std::vector<int> a = {0, 4, 8}, b = {1, 5}, c = {2, 6, 9, 10}, idle = {3, 7};
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(11, 11);
  const auto fill = [&](const std::vector<int>& rows, const std::vector<int>& cols) {
    std::uniform_real_distribution<double> unit(-100.0, 100.0);
    for (int r : rows) {
      for (int col : cols) J(r, col) = unit(rng);
    }
  };
  fill(a, a);
  fill(b, b);
  fill(c, c);
  fill(a, b);
  fill(b, c);
  fill(a, c);
  FixedJacobian problem(J);
  IterationMatrix W(11);
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.02));
  EXPECT_EQ(W.num_blocks(), 3);
  for (int i : idle) EXPECT_FALSE(W.active(i)) << i;
  for (int i : c) EXPECT_TRUE(W.active(i)) << i;
  EXPECT_LT(SolveError(J, 0.02, &W, &rng), 1e-12);

  // Coupling c back to a joins the three groups into one block.
  problem.J()(c[0], a[1]) = 30.0;
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.02));
  EXPECT_EQ(W.num_blocks(), 1);
  EXPECT_LT(SolveError(problem.J(), 0.02, &W, &rng), 1e-12);

  // Taking the coupling away again keeps the order (the pattern only grows), and the
  // solution.
  problem.J()(c[0], a[1]) = 0.0;
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.02));
  EXPECT_EQ(W.num_blocks(), 1);
  EXPECT_LT(SolveError(problem.J(), 0.02, &W, &rng), 1e-12);
}

// A declared structure fixes the order: the blocks are those of the structure (a superset of
// J's nonzeros), whatever J holds, and the solution is the dense one. Without it, the same J
// would factor as two blocks.
TEST(IterationMatrixTest, DeclaredStructureFixesTheBlocks) {
  std::mt19937 rng(5);
  const int n = 6;
  // Two 3 x 3 groups that may read each other, declared; J holds only the diagonal blocks at
  // first.
  std::vector<char> structure(n * n, 0);
  const auto declare = [&](int r0, int c0) {
    for (int c = c0; c < c0 + 3; ++c) {
      for (int r = r0; r < r0 + 3; ++r) structure[c * n + r] = 1;
    }
  };
  declare(0, 0);
  declare(3, 3);
  declare(0, 3);
  declare(3, 0);
  Eigen::MatrixXd J = 50.0 * RandomMatrix(n, &rng);
  J.block(0, 3, 3, 3).setZero();
  J.block(3, 0, 3, 3).setZero();
  FixedJacobian problem(J);
  problem.Declare(structure);
  IterationMatrix undeclared(n);
  FormFrom(&problem, &undeclared);
  ASSERT_TRUE(undeclared.Factor(0.01));
  EXPECT_EQ(undeclared.num_blocks(), 2);
  IterationMatrix W(problem, JacobianMethod::kAuto);
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.01));
  EXPECT_EQ(W.num_blocks(), 1);
  EXPECT_LT(SolveError(problem.J(), 0.01, &W, &rng), 1e-12);
  // The coupling the structure allows, now nonzero: the same block, the dense solution.
  problem.J().block(0, 3, 3, 3) = 50.0 * RandomMatrix(3, &rng);
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.01));
  EXPECT_EQ(W.num_blocks(), 1);
  EXPECT_LT(SolveError(problem.J(), 0.01, &W, &rng), 1e-12);
}

// A chain of 2 x 2 filters each driven by the next (the ordering's search goes as deep as
// the chain), with pivoting needed inside each block: n blocks and the dense solution.
TEST(IterationMatrixTest, LongChainOfSmallBlocks) {
  const int blocks = 300, nx = 2 * blocks;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(nx, nx);
  for (int k = 0; k < blocks; ++k) {
    const int q = 2 * k, v = q + 1;
    J(q, v) = 1.0;
    J(v, q) = -4.0e4;
    J(v, v) = -4.0e2;
    if (k + 1 < blocks) J(v, q + 2) = 4.0e4;
  }
  std::mt19937 rng(3);
  FixedJacobian problem(J);
  IterationMatrix W(nx);
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.05));
  EXPECT_EQ(W.num_blocks(), blocks);
  EXPECT_LT(SolveError(J, 0.05, &W, &rng), 1e-10);
}

TEST(IterationMatrixTest, SingularOrNonFiniteFails) {
  FixedJacobian problem(Eigen::MatrixXd::Identity(3, 3));
  IterationMatrix W(3);
  FormFrom(&problem, &W);
  EXPECT_FALSE(W.Factor(1.0));  // I - J = 0
  EXPECT_EQ(W.nonfinite_state(), -1);
  EXPECT_TRUE(W.Factor(0.5));
  // A non-finite entry outside the diagonal blocks is caught too, and its row named.
  problem.J()(0, 2) = std::numeric_limits<double>::quiet_NaN();
  FormFrom(&problem, &W);
  EXPECT_FALSE(W.Factor(0.5));
  EXPECT_EQ(W.nonfinite_state(), 0);
  problem.J()(0, 2) = 0.0;
  problem.J()(2, 2) = std::numeric_limits<double>::infinity();
  FormFrom(&problem, &W);
  EXPECT_FALSE(W.Factor(0.5));
  EXPECT_EQ(W.nonfinite_state(), 2);
}

// A mass-spring lattice of 12 x 12 nodes moving along one axis, states positions then
// velocities (x' = v, v' = K x + C v with K and C the springs' and dashpots' stencils), fed
// one way by a 3-state driver: the lattice is one block of 144 kept velocities (the positions
// eliminated) with 3 % of its entries nonzero, which SparseLu factors. Its solution is the
// dense LU's, for several step sizes (refactorizations with the first pivots) and after the
// values change enough to need new pivots.
TEST(IterationMatrixTest, LargeSparseBlockIsFactoredSparseAndMatchesDenseLu) {
  const int side = 12, nodes = side * side, driver = 3, nx = 2 * nodes + driver;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> stiffness(1.0e3, 4.0e3);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(nx, nx);
  const auto spring = [&](int a, int b) {
    const double k = stiffness(rng), c = 1e-3 * k;
    for (const auto& [row, sign] : {std::pair{a, 1.0}, std::pair{b, -1.0}}) {
      J(nodes + row, a) -= sign * k;
      J(nodes + row, b) += sign * k;
      J(nodes + row, nodes + a) -= sign * c;
      J(nodes + row, nodes + b) += sign * c;
    }
  };
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) {
      const int n = i * side + j;
      J(n, nodes + n) = 1.0;
      if (j + 1 < side) spring(n, n + 1);
      if (i + 1 < side) spring(n, n + side);
      if (i + 1 < side && j + 1 < side) spring(n, n + side + 1);
    }
  }
  const int d = 2 * nodes;
  J.block(d, d, driver, driver) = 20.0 * RandomMatrix(driver, &rng);
  J(nodes + 5, d) = J(nodes + 77, d + 2) = 300.0;  // the driver pushes two nodes
  std::vector<char> structure(static_cast<size_t>(nx) * nx);
  for (int c = 0; c < nx; ++c) {
    for (int r = 0; r < nx; ++r) structure[static_cast<size_t>(c) * nx + r] = J(r, c) != 0.0;
  }
  FixedJacobian problem(J);
  problem.Declare(structure);
  IterationMatrix W(problem, JacobianMethod::kAuto);
  FormFrom(&problem, &W);
  for (const double gamma_h : {1e-3, 1e-2, 1e-4, 0.05}) {
    ASSERT_TRUE(W.Factor(gamma_h));
    EXPECT_EQ(W.num_sparse_blocks(), 1);
    EXPECT_EQ(W.num_eliminated(), nodes);
    EXPECT_LT(SolveError(problem.J(), gamma_h, &W, &rng), 1e-12) << "gamma h " << gamma_h;
  }
  // Within the structure, values for which the first pivots fail: a negative diagonal that
  // cancels W's at this step, row by row, unless rows are interchanged.
  for (int n = 0; n < nodes; ++n) problem.J()(nodes + n, nodes + n) = 100.0 + n;
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.01));
  EXPECT_LT(SolveError(problem.J(), 0.01, &W, &rng), 1e-9);
  // A NaN in the block is named by its row.
  problem.J()(nodes + 9, 10) = std::numeric_limits<double>::quiet_NaN();
  FormFrom(&problem, &W);
  EXPECT_FALSE(W.Factor(0.01));
  EXPECT_EQ(W.nonfinite_state(), nodes + 9);
}

// The union pattern is the matrix's memory: a fresh matrix given it orders as the original
// (one block, though the present J would give three) and solves bitwise alike.
TEST(IterationMatrixTest, SavedPatternRestoresTheOrder) {
  std::mt19937 rng(5);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, 6);
  J.topLeftCorner(2, 2) = 10.0 * RandomMatrix(2, &rng);
  J.block(2, 2, 2, 2) = 10.0 * RandomMatrix(2, &rng);
  J.bottomRightCorner(2, 2) = 10.0 * RandomMatrix(2, &rng);
  J(0, 3) = J(2, 5) = 4.0;
  FixedJacobian problem(J);
  IterationMatrix W(6);
  problem.J()(5, 0) = 7.0;  // a coupling that closes the three into one, for a while
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.1));
  problem.J()(5, 0) = 0.0;
  FormFrom(&problem, &W);
  ASSERT_TRUE(W.Factor(0.1));
  EXPECT_EQ(W.num_blocks(), 1);

  std::vector<double> memory;
  MemoryWriter out(&memory);
  W.SaveMemory(out);
  ASSERT_EQ(memory.size(), IterationMatrix::memory_size(6));
  IterationMatrix restored(6), fresh(6);
  MemoryReader in(memory, memory.size(), "test");
  restored.RestoreMemory(in);
  FormFrom(&problem, &restored);
  FormFrom(&problem, &fresh);
  ASSERT_TRUE(restored.Factor(0.1));
  ASSERT_TRUE(fresh.Factor(0.1));
  EXPECT_EQ(restored.num_blocks(), 1);
  EXPECT_EQ(fresh.num_blocks(), 3);
  Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(6, -1.0, 2.0), b = a;
  W.Solve(a);
  restored.Solve(b);
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace twinblocks::solvers::internal
