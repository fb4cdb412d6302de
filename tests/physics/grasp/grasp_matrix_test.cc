#include "physics/grasp/grasp_matrix.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/physics/grasp/grasp_test_helpers.h"

namespace twinblocks::grasp {
namespace {

using testing::kSphereRadius;

// H1. Three hard fingers at theta_i = 10, 130, 250 degrees on the equator (10 degrees off the
// x axis so that no normal has a second zero component to tie with z's), reference point at
// the centre, c_i = cos(theta_i), s_i = sin(theta_i). n_i = -(c_i, s_i, 0) has no z
// component, so t1 = z and t2 = n x z = (-s_i, c_i, 0); p_i is parallel to n_i. G's columns:
//   [n_i; 0],  [z; r (s_i, -c_i, 0)],  [t2_i; (0, 0, r)].
// The force block of G G^T is sum_i (n n^T + z z^T + t2 t2^T) = 3 I (each contact's frame is
// orthonormal). The coupling block is z r sum_i (s_i, -c_i, 0)^T + sum_i t2_i (0, 0, r)^T = 0
// (sum_i c_i = sum_i s_i = 0). The torque block is r^2 sum_i (s_i, -c_i, 0)(s_i, -c_i, 0)^T +
// 3 r^2 e_z e_z^T = r^2 diag(3/2, 3/2, 3) (sum c^2 = sum s^2 = 3/2, sum s c = 0). So
// G G^T = diag(3, 3, 3, 3r^2/2, 3r^2/2, 3r^2), and G's singular values are its square roots:
// sqrt(3) (three times), sqrt(3) r, sqrt(3/2) r (twice). Tolerance 1e-14: a few roundings of
// numbers of order 1.
TEST(GraspMatrixTest, ThreeHardFingersOnEquatorMatchClosedForm) {
  Eigen::Matrix3Xd p, n;
  const double phase = 10.0 * std::numbers::pi / 180.0;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n, phase);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  ASSERT_EQ(grasp.G.rows(), 6);
  ASSERT_EQ(grasp.G.cols(), 9);
  for (int i = 0; i < 3; ++i) {
    const double theta = phase + 2.0 * std::numbers::pi * i / 3;
    const double c = std::cos(theta), s = std::sin(theta);
    Eigen::Matrix<double, 6, 3> expected;
    expected << -c, 0, -s,         //
        -s, 0, c,                  //
        0, 1, 0,                   //
        0, kSphereRadius * s, 0,   //
        0, -kSphereRadius * c, 0,  //
        0, 0, kSphereRadius;
    EXPECT_TRUE(grasp.G.middleCols(3 * i, 3).isApprox(expected, 1e-14)) << "contact " << i;
  }
  Eigen::Matrix<double, 6, 1> diagonal;
  diagonal << 3, 3, 3, 1.5 * kSphereRadius * kSphereRadius, 1.5 * kSphereRadius * kSphereRadius,
      3 * kSphereRadius * kSphereRadius;
  const Eigen::MatrixXd GGt = grasp.G * grasp.G.transpose();
  EXPECT_LT((GGt - Eigen::MatrixXd(diagonal.asDiagonal())).cwiseAbs().maxCoeff(), 1e-14);
  Eigen::Matrix<double, 6, 1> sigma;
  sigma << std::sqrt(3.0), std::sqrt(3.0), std::sqrt(3.0), std::sqrt(3.0) * kSphereRadius,
      std::sqrt(1.5) * kSphereRadius, std::sqrt(1.5) * kSphereRadius;
  EXPECT_LT((grasp.singular_values - sigma).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_NEAR(grasp.min_singular_value, std::sqrt(1.5) * kSphereRadius, 1e-14);
}

// The contact frame is right-handed and orthonormal for any normal, and t1 follows the rule
// (the world axis least aligned with n, projected). Tolerance 1e-14.
TEST(GraspMatrixTest, ContactFrameIsOrthonormalAndDeterministic) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d n = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
    const Eigen::Matrix3d R = CalcContactFrame(n);
    EXPECT_TRUE((R.transpose() * R).isIdentity(1e-14));
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    EXPECT_TRUE(R.col(0).isApprox(n, 1e-15));
    int k = 0;
    n.cwiseAbs().minCoeff(&k);
    EXPECT_NEAR(R.col(1).dot(Eigen::Vector3d::Unit(k)), std::sqrt(1.0 - n[k] * n[k]), 1e-14);
  }
  const Eigen::Matrix3d R = CalcContactFrame(Eigen::Vector3d::UnitZ());
  EXPECT_TRUE(R.col(1).isApprox(Eigen::Vector3d::UnitX()));
  EXPECT_TRUE(R.col(2).isApprox(Eigen::Vector3d::UnitY()));
}

// Each model's columns: a point contact has the normal column only; a soft finger adds
// [0; n]. Tolerance: exact (the same arithmetic).
TEST(GraspMatrixTest, ModelsShareColumns) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(4, kSphereRadius, &p, &n);
  p.row(2).setConstant(0.01);
  const Eigen::Vector3d c(0.002, -0.001, 0.003);
  const GraspMatrix point = CalcGraspMatrix(p, n, c, ContactModel::kPointWithoutFriction);
  const GraspMatrix hard = CalcGraspMatrix(p, n, c, ContactModel::kHardFinger);
  const GraspMatrix soft = CalcGraspMatrix(p, n, c, ContactModel::kSoftFinger);
  ASSERT_EQ(point.G.cols(), 4);
  ASSERT_EQ(soft.G.cols(), 16);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(point.G.col(i), hard.G.col(3 * i));
    EXPECT_EQ(soft.G.middleCols(4 * i, 3), hard.G.middleCols(3 * i, 3));
    EXPECT_TRUE(soft.G.col(4 * i + 3).head<3>().isZero());
    EXPECT_EQ(soft.G.col(4 * i + 3).tail<3>(), n.col(i));
  }
  EXPECT_EQ(point.min_singular_value, 0.0);  // 4 columns cannot span 6 dimensions
}

}  // namespace
}  // namespace twinblocks::grasp
