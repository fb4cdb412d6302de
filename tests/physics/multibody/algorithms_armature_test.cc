// Armature: a drive's inertia reflected onto a joint (Boschetti & Sinico 2024, "Designing Digital
// Twins of Robots Using Simscape Multibody", eq. 29's B_m = diag(n^2 J_m)) enters every algorithm
// the same way: the mass matrix's diagonal.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

/// The reference arm with its drives (models/robot6dof/drive.xml): n_r^2 J_m on each joint.
KinematicTree ArmWithDrives() {
  const double n[] = {80, 50, 50, 30, 30, 15};
  const double Jm[] = {3.3e-4, 3.3e-4, 1.5e-4, 5.0e-5, 5.0e-5, 2.0e-5};
  const KinematicTree bare = testing::ReferenceArm();
  std::vector<BodySpec> bodies;
  for (int i = 0; i < bare.num_bodies(); ++i) {
    BodySpec b = bare.body(i);
    b.armature = n[i] * n[i] * Jm[i];
    bodies.push_back(b);
  }
  return KinematicTree(bodies, bare.gravity());
}

TEST(Armature, AddsToTheMassMatrixDiagonalInEveryAlgorithm) {
  const KinematicTree bare = testing::ReferenceArm();
  const KinematicTree tree = ArmWithDrives();
  KinematicTreeData d0(bare), d(tree);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = Eigen::VectorXd::NullaryExpr(6, [&] { return 3 * u(rng); });
    const Eigen::VectorXd v = Eigen::VectorXd::NullaryExpr(6, [&] { return 2 * u(rng); });
    const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(6, [&] { return 5 * u(rng); });
    const Eigen::MatrixXd M0 = Crba(bare, &d0, q);
    const Eigen::MatrixXd M = Crba(tree, &d, q);
    EXPECT_LT((M - M0 - Eigen::MatrixXd(tree.armature().asDiagonal())).cwiseAbs().maxCoeff(),
              1e-12);
    // RNEA = M a + c + g with the armature's torque.
    const Eigen::VectorXd tau = Rnea(tree, &d, q, v, a);
    const Eigen::VectorXd nle = NonlinearEffects(tree, &d, q, v);
    EXPECT_LT((tau - (M * a + nle)).cwiseAbs().maxCoeff(), 1e-10 * (1 + tau.cwiseAbs().maxCoeff()));
    // ABA solves it.
    const Eigen::VectorXd qdd = Aba(tree, &d, q, v, tau);
    EXPECT_LT((qdd - a).cwiseAbs().maxCoeff(), 1e-9 * (1 + a.cwiseAbs().maxCoeff()));
    // Hybrid: prescribing joints 2 and 5 gives back their torques, armature included.
    std::vector<unsigned char> prescribed{0, 1, 0, 0, 1, 0};
    Eigen::VectorXd mixed = tau;
    mixed[1] = a[1];
    mixed[4] = a[4];
    AbaHybrid(tree, &d, q, v, mixed, prescribed, nullptr);
    EXPECT_LT((d.qdd - a).cwiseAbs().maxCoeff(), 1e-9 * (1 + a.cwiseAbs().maxCoeff()));
    EXPECT_NEAR(d.tau[1], tau[1], 1e-9 * (1 + std::abs(tau[1])));
    EXPECT_NEAR(d.tau[4], tau[4], 1e-9 * (1 + std::abs(tau[4])));
    // The drives' kinetic energy is 1/2 v^T B v.
    EXPECT_NEAR(DriveKineticEnergy(tree, v), 0.5 * v.dot(tree.armature().cwiseProduct(v)), 1e-15);
  }
}

TEST(Armature, RefusesANegativeValue) {
  std::vector<BodySpec> bodies(1);
  bodies[0].armature = -1.0;
  EXPECT_THROW(KinematicTree(bodies, Eigen::Vector3d::Zero()), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::multibody
