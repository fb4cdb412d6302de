#include "physics/multibody/dh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "physics/multibody/algorithms.h"

namespace twinblocks::multibody {
namespace {

TEST(DhTest, ModifiedTransformMatchesCraigMatrix) {
  const double alpha = 0.3, a = 0.2, theta = -1.1, d = 0.45;
  const Pose T = ModifiedDhTransform(alpha, a, theta, d);
  Eigen::Matrix3d R;
  R << std::cos(theta), -std::sin(theta), 0,                                                   //
      std::sin(theta) * std::cos(alpha), std::cos(theta) * std::cos(alpha), -std::sin(alpha),  //
      std::sin(theta) * std::sin(alpha), std::cos(theta) * std::sin(alpha), std::cos(alpha);
  EXPECT_LT((T.rotation - R).norm(), 1e-15);
  EXPECT_LT((T.translation - Eigen::Vector3d(a, -std::sin(alpha) * d, std::cos(alpha) * d)).norm(),
            1e-15);
}

// A planar 2R arm in standard DH (alpha = 0, a_i = L_i, frame i at the end of link i, CoM at
// -(L_i - lc_i) on x_i) has the textbook mass matrix and gravity vector (Spong 7.4).
TEST(DhTest, StandardPlanarArmMatchesClosedForm) {
  const double m1 = 1.3, m2 = 0.8, L1 = 0.9, L2 = 0.6, lc1 = 0.4, lc2 = 0.35;
  const double I1 = 0.05, I2 = 0.02, g = 9.81;
  std::vector<DhLink> links(2);
  links[0].a = L1;
  links[0].mass = m1;
  links[0].com = Eigen::Vector3d(lc1 - L1, 0, 0);
  links[0].inertia_com = Eigen::Vector3d(0.01, 0.03, I1).asDiagonal();
  links[1].a = L2;
  links[1].mass = m2;
  links[1].com = Eigen::Vector3d(lc2 - L2, 0, 0);
  links[1].inertia_com = Eigen::Vector3d(0.02, 0.01, I2).asDiagonal();
  const KinematicTree tree = BuildStandardDhTree(links, Eigen::Vector3d(0, -g, 0));
  KinematicTreeData data(tree);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-M_PI, M_PI);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::Vector2d q(u(rng), u(rng));
    const double c2 = std::cos(q[1]);
    Eigen::Matrix2d M;
    M(0, 0) = m1 * lc1 * lc1 + m2 * (L1 * L1 + lc2 * lc2 + 2 * L1 * lc2 * c2) + I1 + I2;
    M(0, 1) = M(1, 0) = m2 * (lc2 * lc2 + L1 * lc2 * c2) + I2;
    M(1, 1) = m2 * lc2 * lc2 + I2;
    EXPECT_LT((Crba(tree, &data, q) - M).norm(), 1e-13);
    const Eigen::Vector2d gravity(
        (m1 * lc1 + m2 * L1) * g * std::cos(q[0]) + m2 * lc2 * g * std::cos(q[0] + q[1]),
        m2 * lc2 * g * std::cos(q[0] + q[1]));
    EXPECT_LT((NonlinearEffects(tree, &data, q, Eigen::Vector2d::Zero()) - gravity).norm(), 1e-12);
    // The end of link 2 (origin of DH frame 2) at (L1 c1 + L2 c12, L1 s1 + L2 s12).
    ForwardKinematics(tree, &data, q);
    const Eigen::Vector3d tip = (data.X_WB[1] * StandardDhTransform(0, L2, 0, 0)).translation;
    EXPECT_LT((tip - Eigen::Vector3d(L1 * std::cos(q[0]) + L2 * std::cos(q[0] + q[1]),
                                     L1 * std::sin(q[0]) + L2 * std::sin(q[0] + q[1]), 0))
                  .norm(),
              1e-14);
  }
}

TEST(DhTest, ThetaOffsetShiftsTheZero) {
  std::vector<DhLink> links(1);
  links[0].theta_offset = 0.4;
  links[0].mass = 1.0;
  const KinematicTree tree = BuildModifiedDhTree(links, Eigen::Vector3d(0, 0, -9.81));
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, Eigen::VectorXd::Constant(1, 0.1));
  EXPECT_LT((data.X_WB[0].rotation - Rz(0.5)).norm(), 1e-15);
}

}  // namespace
}  // namespace twinblocks::multibody
