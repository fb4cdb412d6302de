#include "physics/spatial/spatial.h"

#include <gtest/gtest.h>

#include <random>

namespace twinblocks::multibody {
namespace {

Pose RandomSpatialPose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Quaterniond r = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
  return {r.toRotationMatrix(), Eigen::Vector3d(u(rng), u(rng), u(rng))};
}

Vector6d RandomVector6(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vector6d v;
  for (int k = 0; k < 6; ++k) v[k] = u(rng);
  return v;
}

TEST(SpatialTest, ComposeAndInverse) {
  std::mt19937 rng(1);
  const Pose X_AB = RandomSpatialPose(rng), X_BC = RandomSpatialPose(rng);
  const Eigen::Vector3d p_C(0.3, -0.2, 0.7);
  EXPECT_TRUE((X_AB * X_BC)
                  .TransformPoint(p_C)
                  .isApprox(X_AB.TransformPoint(X_BC.TransformPoint(p_C)), 1e-14));
  const Pose I = X_AB * X_AB.Inverse();
  EXPECT_TRUE(I.rotation.isIdentity(1e-14));
  EXPECT_LT(I.translation.norm(), 1e-14);
}

TEST(SpatialTest, ActionsMatchTheirMatricesAndInverses) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 10; ++trial) {
    const Pose X = RandomSpatialPose(rng);
    const Vector6d m = RandomVector6(rng), f = RandomVector6(rng);
    EXPECT_LT((X.ActMotion(m) - X.MotionMatrix() * m).norm(), 1e-14);
    EXPECT_LT((X.ActForce(f) - X.ForceMatrix() * f).norm(), 1e-14);
    EXPECT_LT((X.InvActMotion(X.ActMotion(m)) - m).norm(), 1e-14);
    EXPECT_LT((X.InvActForce(X.ActForce(f)) - f).norm(), 1e-14);
    EXPECT_LT((X.Inverse().ActMotion(m) - X.InvActMotion(m)).norm(), 1e-14);
    // Power is frame independent: (X m) . (X* f) = m . f.
    EXPECT_NEAR(X.ActMotion(m).dot(X.ActForce(f)), m.dot(f), 1e-14);
    EXPECT_TRUE((X.ForceMatrix() * X.MotionMatrix().transpose()).isIdentity(1e-14));
    // Composition of matrices is the matrix of the composition.
    const Pose Y = RandomSpatialPose(rng);
    EXPECT_LT(((X * Y).MotionMatrix() - X.MotionMatrix() * Y.MotionMatrix()).norm(), 1e-13);
  }
}

TEST(SpatialTest, CrossProducts) {
  std::mt19937 rng(3);
  const Vector6d m = RandomVector6(rng), n = RandomVector6(rng), f = RandomVector6(rng);
  EXPECT_LT((Crm(m) * n - CrossMotion(m, n)).norm(), 1e-15);
  EXPECT_LT((Crf(m) * f - CrossForce(m, f)).norm(), 1e-15);
  EXPECT_LT((Crf(m) + Crm(m).transpose()).norm(), 1e-15);
  EXPECT_LT(CrossMotion(m, m).norm(), 1e-15);
  // Cross products transform like their arguments: X (m x n) = (X m) x (X n).
  const Pose X = RandomSpatialPose(rng);
  EXPECT_LT((X.ActMotion(CrossMotion(m, n)) - CrossMotion(X.ActMotion(m), X.ActMotion(n))).norm(),
            1e-14);
  EXPECT_LT((X.ActForce(CrossForce(m, f)) - CrossForce(X.ActMotion(m), X.ActForce(f))).norm(),
            1e-14);
}

TEST(SpatialTest, InertiaApplyMatrixAndTransform) {
  std::mt19937 rng(4);
  const SpatialInertia I(2.5, Eigen::Vector3d(0.1, -0.3, 0.2),
                         Eigen::Vector3d(0.2, 0.3, 0.4).asDiagonal());
  const Vector6d V = RandomVector6(rng);
  EXPECT_LT((I.Apply(V) - I.Matrix() * V).norm(), 1e-14);
  EXPECT_TRUE(I.Matrix().isApprox(I.Matrix().transpose(), 1e-15));
  // Kinetic energy of a point-free rigid body moving in pure translation: 1/2 m |v|^2.
  Vector6d translation = Vector6d::Zero();
  translation.tail<3>() << 1.0, 2.0, -1.0;
  EXPECT_NEAR(0.5 * translation.dot(I.Apply(translation)), 0.5 * 2.5 * 6.0, 1e-14);
  const Pose X_AB = RandomSpatialPose(rng);
  EXPECT_LT((I.TransformedBy(X_AB).Matrix() - X_AB.ActInertia(I.Matrix())).norm(), 1e-13);
  // Any symmetric motion-to-force matrix (an articulated inertia need not be a rigid body's).
  Matrix6d G = Matrix6d::Random();
  G = (G * G.transpose()).eval();
  const Matrix6d F = X_AB.ForceMatrix();
  EXPECT_LT((X_AB.ActInertia(G) - F * G * F.transpose()).norm(), 1e-12);
  // A rigid body's inertia (and a sum of two, as CRBA's composites) by its ten numbers: the
  // same as the general transform, added to what is there.
  const SpatialInertia J(0.7, Eigen::Vector3d(-0.2, 0.05, 0.3),
                         Eigen::Vector3d(0.05, 0.02, 0.04).asDiagonal());
  const Matrix6d composite = I.Matrix() + J.TransformedBy(RandomSpatialPose(rng)).Matrix();
  Matrix6d general = G, rigid = G;
  X_AB.AddActInertia(composite, &general);
  X_AB.AddActRigidInertia(composite, &rigid);
  EXPECT_LT((rigid - general).norm(), 1e-13 * (1.0 + general.norm()));
}

TEST(SpatialTest, AxisRotations) {
  EXPECT_TRUE((Rz(M_PI / 2) * Eigen::Vector3d::UnitX()).isApprox(Eigen::Vector3d::UnitY()));
  EXPECT_TRUE((Rx(M_PI / 2) * Eigen::Vector3d::UnitY()).isApprox(Eigen::Vector3d::UnitZ()));
  EXPECT_TRUE((Ry(M_PI / 2) * Eigen::Vector3d::UnitZ()).isApprox(Eigen::Vector3d::UnitX()));
}

}  // namespace
}  // namespace twinblocks::multibody
