// Acceptance point B6 of the multibody core: "On random configurations of the arm and of a
// 30-link chain: CRBA equals the mass matrix from RNEA with unit accelerations, is symmetric
// positive definite, and ABA equals solving M qdd = tau - c - g", extended to random trees
// with spherical and free joints; and the hybrid (motion-prescribed) ABA, external forces and
// the potential energy, each checked against RNEA or a closed form.
//
// Tolerances are relative to the size of the quantities (M's largest entry, qdd's largest
// entry, plus one so that near-zero values do not make them absolute zero): 1e-10 for M and
// 1e-9 for accelerations and forces, about 1e5 times the round-off measured (printed).
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomConfiguration;
using testing::RandomMixedTree;
using testing::RandomTree;
using testing::RandomVector;
using testing::ReferenceArm;

std::vector<Vector6d> RandomForces(std::mt19937& rng, int n, double scale) {
  std::vector<Vector6d> f(n);
  for (Vector6d& fi : f) fi = RandomVector(rng, 6, scale);
  return f;
}

double MaxAbs(const Eigen::MatrixXd& x) { return x.cwiseAbs().maxCoeff(); }

// The B6 checks on 20 seeded random states of `tree`.
void CheckB6(const KinematicTree& tree, unsigned seed) {
  KinematicTreeData data(tree);
  const int nv = tree.nv();
  std::mt19937 rng(seed);
  double worst_m = 0.0, worst_qdd = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(tree, rng, M_PI);
    const Eigen::VectorXd v = RandomVector(rng, nv, 2.0);
    const Eigen::VectorXd tau = RandomVector(rng, nv, 20.0);
    // c + g, then M column j = RNEA(q, v, e_j) - (c + g).
    const Eigen::VectorXd bias = NonlinearEffects(tree, &data, q, v);
    Eigen::MatrixXd M_rnea(nv, nv);
    for (int j = 0; j < nv; ++j) {
      M_rnea.col(j) = Rnea(tree, &data, q, v, Eigen::VectorXd::Unit(nv, j)) - bias;
    }
    const Eigen::MatrixXd M = Crba(tree, &data, q);
    const double m_error = MaxAbs(M - M_rnea) / (1.0 + MaxAbs(M));
    worst_m = std::max(worst_m, m_error);
    EXPECT_LT(m_error, 1e-10) << "trial " << trial;
    EXPECT_EQ(M, M.transpose()) << "trial " << trial;
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    EXPECT_EQ(llt.info(), Eigen::Success) << "trial " << trial;
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);

    const Eigen::VectorXd qdd_solve = llt.solve(tau - bias);
    const Eigen::VectorXd qdd = Aba(tree, &data, q, v, tau);
    const double qdd_error = MaxAbs(qdd - qdd_solve) / (1.0 + MaxAbs(qdd_solve));
    worst_qdd = std::max(worst_qdd, qdd_error);
    EXPECT_LT(qdd_error, 1e-9) << "trial " << trial;
  }
  std::printf("  nv %d: max rel |CRBA - RNEA columns| %.2e, max rel |ABA - M\\(tau-c-g)| %.2e\n",
              nv, worst_m, worst_qdd);
}

TEST(DynamicsConsistencyTest, B6ReferenceArm) { CheckB6(ReferenceArm(), 601); }

TEST(DynamicsConsistencyTest, B6Chain30) { CheckB6(RandomTree(30, 2024, /*branched=*/false), 602); }

TEST(DynamicsConsistencyTest, B6BranchedTree30) {
  CheckB6(RandomTree(30, 77, /*branched=*/true), 603);
}

TEST(DynamicsConsistencyTest, B6MixedChainWithSphericalAndFreeJoints) {
  CheckB6(RandomMixedTree(12, 11, /*branched=*/false), 604);
}

TEST(DynamicsConsistencyTest, B6MixedBranchedTreeWithSphericalAndFreeJoints) {
  CheckB6(RandomMixedTree(20, 12, /*branched=*/true), 605);
}

// The hybrid ABA against RNEA on `tree`: with nothing prescribed it is Aba; with a random
// mix, RNEA at the resulting accelerations needs exactly the forces it reports (the given tau
// of force-driven joints, its own answer for prescribed ones) and transmits the same joint
// forces F; with everything prescribed it is inverse dynamics. External forces throughout.
void CheckHybrid(const KinematicTree& tree, unsigned seed) {
  KinematicTreeData data(tree), rnea_data(tree), posed_data(tree), skip_data(tree),
      skip_posed_data(tree);
  const int nv = tree.nv(), n = tree.num_bodies();
  std::mt19937 rng(seed);
  double worst_tau = 0.0, worst_f = 0.0;
  int hanging = 0;  // driven bodies with a free subtree below, over the trials
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(tree, rng, M_PI);
    const Eigen::VectorXd v = RandomVector(rng, nv, 2.0);
    const Eigen::VectorXd u = RandomVector(rng, nv, 10.0);
    const std::vector<Vector6d> f_ext = RandomForces(rng, n, 5.0);
    const std::vector<Vector6d>* f = trial % 2 == 0 ? &f_ext : nullptr;

    std::vector<unsigned char> prescribed(n, 0);
    const Eigen::VectorXd qdd_aba = Aba(tree, &data, q, v, u, f);
    const Eigen::VectorXd qdd_none = AbaHybrid(tree, &data, q, v, u, prescribed, f);
    EXPECT_LT(MaxAbs(qdd_none - qdd_aba), 1e-12 * (1.0 + MaxAbs(qdd_aba)));
    EXPECT_EQ(data.tau, u);

    std::bernoulli_distribution coin(0.5);
    for (int i = 0; i < n; ++i) prescribed[i] = trial % 5 == 4 ? 1 : coin(rng);
    const Eigen::VectorXd qdd = AbaHybrid(tree, &data, q, v, u, prescribed, f);
    const Eigen::VectorXd tau = data.tau;
    // After ForwardKinematics at the same q and v, the variant that takes its poses and
    // velocities gives the same answer, to the last bit but for the order of two additions.
    ForwardKinematics(tree, &posed_data, q, v);
    const Eigen::VectorXd& qdd_posed =
        AbaHybridAfterKinematics(tree, &posed_data, v, u, prescribed, f);
    EXPECT_LT(MaxAbs(qdd_posed - qdd), 1e-13 * (1.0 + MaxAbs(qdd))) << "trial " << trial;
    EXPECT_LT(MaxAbs(posed_data.tau - tau), 1e-13 * (1.0 + MaxAbs(tau))) << "trial " << trial;
    // Without the forces of the bodies driven from the world: the same accelerations to the
    // last bit, and the same forces of the bodies that are not driven (a free subtree on a
    // driven body still sees that body's acceleration).
    const Eigen::VectorXd& qdd_skip =
        AbaHybrid(tree, &skip_data, q, v, u, prescribed, f, DrivenForces::kSkip);
    EXPECT_EQ(qdd_skip, qdd) << "trial " << trial;
    ForwardKinematics(tree, &skip_posed_data, q, v);
    const Eigen::VectorXd& qdd_skip_posed =
        AbaHybridAfterKinematics(tree, &skip_posed_data, v, u, prescribed, f, DrivenForces::kSkip);
    EXPECT_EQ(qdd_skip_posed, qdd_posed) << "trial " << trial;
    for (int i = 0; i < n; ++i) {
      if (data.driven[i] != 0) continue;
      EXPECT_EQ(skip_data.F[i], data.F[i]) << "trial " << trial << " body " << i;
      const int iv = tree.idx_v(i), nv_i = tree.joint(i).nv();
      EXPECT_EQ(skip_data.tau.segment(iv, nv_i), tau.segment(iv, nv_i)) << "body " << i;
    }
    for (int i = 0; i < n; ++i) hanging += skip_data.drives_free[i];
    const Eigen::VectorXd& tau_rnea = Rnea(tree, &rnea_data, q, v, qdd, f);
    const double tau_error = MaxAbs(tau - tau_rnea) / (1.0 + MaxAbs(tau_rnea));
    worst_tau = std::max(worst_tau, tau_error);
    EXPECT_LT(tau_error, 1e-9) << "trial " << trial;
    double f_scale = 1.0, f_error = 0.0;
    for (int i = 0; i < n; ++i) {
      f_scale = std::max(f_scale, rnea_data.F[i].cwiseAbs().maxCoeff());
      f_error = std::max(f_error, (data.F[i] - rnea_data.F[i]).cwiseAbs().maxCoeff());
      EXPECT_LT((data.A[i] - rnea_data.A[i]).norm(), 1e-9 * (1.0 + rnea_data.A[i].norm()));
      const int iv = tree.idx_v(i), nv_i = tree.joint(i).nv();
      if (prescribed[i]) {
        EXPECT_EQ(qdd.segment(iv, nv_i), u.segment(iv, nv_i)) << "body " << i;
      } else {
        EXPECT_EQ(tau.segment(iv, nv_i), u.segment(iv, nv_i)) << "body " << i;
      }
    }
    worst_f = std::max(worst_f, f_error / f_scale);
    EXPECT_LT(f_error, 1e-9 * f_scale) << "trial " << trial;
  }
  EXPECT_GT(hanging, 0) << "no trial had a free subtree below a driven body";
  std::printf("  nv %d: max rel |tau hybrid - RNEA| %.2e, max rel |F hybrid - RNEA| %.2e\n", nv,
              worst_tau, worst_f);
}

TEST(DynamicsHybridTest, ReferenceArm) { CheckHybrid(ReferenceArm(), 701); }

TEST(DynamicsHybridTest, BranchedTree30) { CheckHybrid(RandomTree(30, 78, true), 702); }

TEST(DynamicsHybridTest, MixedBranchedTree) { CheckHybrid(RandomMixedTree(15, 13, true), 703); }

// External forces: ABA with f_ext undoes RNEA with the same f_ext, and a force on a body is the
// same as the joint torques J^T f it maps to: checked on the arm with a pure force at the
// last body's origin against the finite-difference Jacobian of that origin's position.
TEST(DynamicsExternalForceTest, AbaUndoesRneaWithExternalForces) {
  const KinematicTree tree = RandomMixedTree(12, 14, /*branched=*/true);
  KinematicTreeData data(tree);
  std::mt19937 rng(704);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(tree, rng, M_PI);
    const Eigen::VectorXd v = RandomVector(rng, tree.nv(), 2.0);
    const Eigen::VectorXd a = RandomVector(rng, tree.nv(), 5.0);
    const std::vector<Vector6d> f_ext = RandomForces(rng, tree.num_bodies(), 10.0);
    const Eigen::VectorXd tau = Rnea(tree, &data, q, v, a, &f_ext);
    const Eigen::VectorXd qdd = Aba(tree, &data, q, v, tau, &f_ext);
    EXPECT_LT(MaxAbs(qdd - a), 1e-9 * (1.0 + MaxAbs(a)));
  }
}

TEST(DynamicsExternalForceTest, TipForceMapsThroughTheJacobianTranspose) {
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  std::mt19937 rng(705);
  const Eigen::VectorXd q = RandomVector(rng, 6, M_PI), zero = Eigen::VectorXd::Zero(6);
  const Eigen::Vector3d f_W(3.0, -2.0, 5.0);
  ForwardKinematics(tree, &data, q);
  std::vector<Vector6d> f_ext(6, Vector6d::Zero());
  f_ext[5].tail<3>() = data.X_WB[5].rotation.transpose() * f_W;
  const Eigen::VectorXd tau_with = Rnea(tree, &data, q, zero, zero, &f_ext);
  const Eigen::VectorXd tau_without = Rnea(tree, &data, q, zero, zero);
  // J_v (3 x 6) of the tip origin by central differences.
  Eigen::Matrix<double, 3, 6> J;
  const double h = 1e-6;
  for (int j = 0; j < 6; ++j) {
    ForwardKinematics(tree, &data, q + h * Eigen::VectorXd::Unit(6, j));
    const Eigen::Vector3d plus = data.X_WB[5].translation;
    ForwardKinematics(tree, &data, q - h * Eigen::VectorXd::Unit(6, j));
    J.col(j) = (plus - data.X_WB[5].translation) / (2 * h);
  }
  EXPECT_LT(MaxAbs(tau_without - tau_with - J.transpose() * f_W), 1e-8);
}

// The gravity torques are the gradient of the potential energy: g(q) = dPE/dq, by central
// differences on the arm; and PE = -m g . p_com for a single body at a known place.
TEST(DynamicsPotentialEnergyTest, GradientIsTheGravityTorque) {
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  std::mt19937 rng(706);
  const double h = 1e-6;
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, 6, M_PI), zero = Eigen::VectorXd::Zero(6);
    const Eigen::VectorXd g = NonlinearEffects(tree, &data, q, zero);
    for (int j = 0; j < 6; ++j) {
      ForwardKinematics(tree, &data, q + h * Eigen::VectorXd::Unit(6, j));
      const double plus = PotentialEnergy(tree, data);
      ForwardKinematics(tree, &data, q - h * Eigen::VectorXd::Unit(6, j));
      EXPECT_NEAR((plus - PotentialEnergy(tree, data)) / (2 * h), g[j], 1e-6) << j;
    }
  }
  BodySpec ball;
  ball.joint = Joint::Prismatic(Eigen::Vector3d::UnitZ());
  ball.inertia = SpatialInertia(2.0, Eigen::Vector3d(0, 0, 0.5), Eigen::Matrix3d::Zero());
  const KinematicTree one({ball}, Eigen::Vector3d(0, 0, -9.81));
  KinematicTreeData one_data(one);
  ForwardKinematics(one, &one_data, Eigen::VectorXd::Constant(1, 1.5));
  EXPECT_NEAR(PotentialEnergy(one, one_data), 2.0 * 9.81 * 2.0, 1e-12);
}

}  // namespace
}  // namespace twinblocks::multibody
