// TreeCholesky (Featherstone's LTL factorization) against the dense Cholesky of the same mass
// matrix: on branched and chain trees with revolute, prismatic, spherical and free joints, for
// every coordinate and for a subset with some joints left out (the motion-driven ones), the
// solves agree to 1e-10 relative to the solution's size; a matrix that is not positive
// definite is refused.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>
#include <stdexcept>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/tree_cholesky.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomConfiguration;
using testing::RandomMixedTree;
using testing::RandomTree;
using testing::RandomVector;

// Solves M x = b for random b on `coordinates` of `tree` both ways; returns the worst
// difference relative to 1 + max |x|.
double WorstDifference(const KinematicTree& tree, const std::vector<int>& coordinates,
                       unsigned seed) {
  KinematicTreeData data(tree);
  std::mt19937 rng(seed);
  TreeCholesky sparse(tree, coordinates);
  const int n = static_cast<int>(coordinates.size());
  EXPECT_EQ(sparse.size(), n);
  double worst = 0.0;
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::MatrixXd& M = Crba(tree, &data, RandomConfiguration(tree, rng, M_PI));
    Eigen::MatrixXd H(n, n);
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) H(a, b) = M(coordinates[a], coordinates[b]);
    }
    EXPECT_TRUE(sparse.Factor(H));
    Eigen::MatrixXd B(n, 3);
    for (int c = 0; c < 3; ++c) B.col(c) = RandomVector(rng, n, 5.0);
    const Eigen::MatrixXd dense = H.llt().solve(B);
    Eigen::MatrixXd x = B;
    sparse.SolveInPlace(x);
    Eigen::VectorXd single = B.col(1);
    sparse.SolveInPlace(single);
    EXPECT_EQ(single, x.col(1));
    worst = std::max(worst, (x - dense).cwiseAbs().maxCoeff() / (1.0 + dense.cwiseAbs().maxCoeff()));
  }
  return worst;
}

std::vector<int> AllCoordinates(const KinematicTree& tree) {
  std::vector<int> all(tree.nv());
  for (int k = 0; k < tree.nv(); ++k) all[k] = k;
  return all;
}

// Every joint's coordinates but those of the bodies whose index is a multiple of `every`.
std::vector<int> SomeCoordinates(const KinematicTree& tree, int every) {
  std::vector<int> some;
  for (int b = 0; b < tree.num_bodies(); ++b) {
    if (b % every == 0) continue;
    for (int o = 0; o < tree.joint(b).nv(); ++o) some.push_back(tree.idx_v(b) + o);
  }
  return some;
}

TEST(TreeCholesky, SolvesAsTheDenseCholesky) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    for (bool branched : {false, true}) {
      for (const KinematicTree& tree :
           {RandomTree(24, seed, branched), RandomMixedTree(12, seed, branched)}) {
        EXPECT_LT(WorstDifference(tree, AllCoordinates(tree), seed), 1e-10);
        EXPECT_LT(WorstDifference(tree, SomeCoordinates(tree, 3), seed), 1e-10);
      }
    }
  }
}

TEST(TreeCholesky, RefusesWhatIsNotPositiveDefinite) {
  const KinematicTree tree = RandomTree(6, 7, true);
  TreeCholesky sparse(tree, AllCoordinates(tree));
  KinematicTreeData data(tree);
  std::mt19937 rng(3);
  Eigen::MatrixXd M = Crba(tree, &data, RandomConfiguration(tree, rng, 1.0));
  M(2, 2) = -1.0;
  EXPECT_FALSE(sparse.Factor(M));
  M(2, 2) = std::nan("");
  EXPECT_FALSE(sparse.Factor(M));
}

TEST(TreeCholesky, RefusesCoordinatesOutOfOrder) {
  const KinematicTree tree = RandomTree(4, 1, false);
  EXPECT_THROW(TreeCholesky(tree, {2, 1}), std::invalid_argument);
  EXPECT_THROW(TreeCholesky(tree, {0, tree.nv()}), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::multibody
