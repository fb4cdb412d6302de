// Spherical and free joints: their poses, the quaternion kinematics (CalcQDot against finite
// differences of CalcJointPose), NormalizeQuaternions and NeutralConfiguration, and the
// dynamics algorithms agreeing with each other on trees that contain them.
#include "physics/multibody/kinematic_tree.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <random>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomConfiguration;
using testing::RandomMixedTree;
using testing::RandomVector;

TEST(JointTypesTest, SizesAndSubspaces) {
  const Joint ball = Joint::Spherical(), free = Joint::Free();
  EXPECT_EQ(ball.nq(), 4);
  EXPECT_EQ(ball.nv(), 3);
  EXPECT_EQ(free.nq(), 7);
  EXPECT_EQ(free.nv(), 6);
  Eigen::Matrix<double, 6, 3> S_ball = Eigen::Matrix<double, 6, 3>::Zero();
  S_ball.topRows<3>().setIdentity();
  EXPECT_EQ(ball.motion_subspace(), S_ball);
  EXPECT_EQ(free.motion_subspace(), Matrix6d::Identity());
  EXPECT_EQ(Joint::Revolute(Eigen::Vector3d::UnitZ()).axis_index(), 2);
  EXPECT_EQ(Joint::Prismatic(-Eigen::Vector3d::UnitX()).axis_index(), 0);
  EXPECT_EQ(Joint::Revolute(Eigen::Vector3d(1, 1, 0)).axis_index(), -1);
}

TEST(JointTypesTest, PosesFromQuaternions) {
  // A quarter turn about z: q = [cos 45, 0, 0, sin 45], scaled by 3 to check normalization.
  const double h = std::sqrt(0.5);
  Eigen::VectorXd q_ball(4);
  q_ball << 3 * h, 0, 0, 3 * h;
  const Pose X_ball = Joint::Spherical().CalcJointPose(q_ball);
  EXPECT_TRUE(X_ball.rotation.isApprox(Rz(M_PI / 2), 1e-15));
  EXPECT_EQ(X_ball.translation, Eigen::Vector3d::Zero());
  Eigen::VectorXd q_free(7);
  q_free << 0.1, -0.2, 0.3, h, h, 0, 0;
  const Pose X_free = Joint::Free().CalcJointPose(q_free);
  EXPECT_TRUE(X_free.rotation.isApprox(Rx(M_PI / 2), 1e-15));
  EXPECT_EQ(X_free.translation, Eigen::Vector3d(0.1, -0.2, 0.3));
}

TEST(JointTypesTest, NeutralConfigurationPutsBodiesOnTheirJointFrames) {
  const KinematicTree tree = RandomMixedTree(9, 3, /*branched=*/true);
  Eigen::VectorXd q(tree.nq());
  NeutralConfiguration(tree, q);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const Joint& joint = tree.joint(i);
    const Pose X_JB = joint.CalcJointPose(q.segment(tree.idx_q(i), joint.nq()));
    EXPECT_TRUE(X_JB.rotation.isIdentity(0.0)) << i;
    EXPECT_EQ(X_JB.translation, Eigen::Vector3d::Zero()) << i;
  }
}

TEST(JointTypesTest, NormalizeQuaternionsTouchesOnlyQuaternions) {
  const KinematicTree tree = RandomMixedTree(7, 4, /*branched=*/false);
  std::mt19937 rng(8);
  const Eigen::VectorXd q0 = RandomVector(rng, tree.nq(), 2.0);
  Eigen::VectorXd q = q0;
  NormalizeQuaternions(tree, q);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i);
    switch (tree.joint(i).type()) {
      case JointType::kSpherical:
        EXPECT_NEAR(q.segment<4>(iq).norm(), 1.0, 1e-15);
        EXPECT_TRUE(q.segment<4>(iq).isApprox(q0.segment<4>(iq).normalized(), 1e-15));
        break;
      case JointType::kFree:
        EXPECT_EQ(q.segment<3>(iq), q0.segment<3>(iq));
        EXPECT_NEAR(q.segment<4>(iq + 3).norm(), 1.0, 1e-15);
        break;
      default:
        EXPECT_EQ(q[iq], q0[iq]);
    }
  }
}

// CalcQDot is the derivative of the configuration that moves each body at v: for every joint,
// d/dt X_JB(q(t)) = X_JB * [omega_B]x (rotation) and R_JB v_B (translation), checked by a
// central difference of CalcJointPose along qdot. Truncation error O(h^2) with h = 1e-6: the
// tolerance 1e-8 is round-off (1e-16 / h) plus that.
TEST(JointTypesTest, CalcQDotMatchesFiniteDifferenceOfJointPose) {
  const KinematicTree tree = RandomMixedTree(10, 5, /*branched=*/true);
  std::mt19937 rng(9);
  const double h = 1e-6;
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(tree, rng, M_PI);
    const Eigen::VectorXd v = RandomVector(rng, tree.nv(), 2.0);
    Eigen::VectorXd qdot(tree.nq());
    CalcQDot(tree, q, v, qdot);
    const Eigen::VectorXd q_plus = q + h * qdot, q_minus = q - h * qdot;
    for (int i = 0; i < tree.num_bodies(); ++i) {
      const Joint& joint = tree.joint(i);
      const int iq = tree.idx_q(i), nq = joint.nq();
      const Pose X = joint.CalcJointPose(q.segment(iq, nq));
      const Pose X_plus = joint.CalcJointPose(q_plus.segment(iq, nq));
      const Pose X_minus = joint.CalcJointPose(q_minus.segment(iq, nq));
      const Eigen::Matrix3d R_dot = (X_plus.rotation - X_minus.rotation) / (2 * h);
      const Eigen::Vector3d p_dot = (X_plus.translation - X_minus.translation) / (2 * h);
      // The body's velocity relative to J, in B: S v.
      Vector6d V_JB = Vector6d::Zero();
      for (int k = 0; k < joint.nv(); ++k) {
        V_JB += joint.motion_subspace().col(k) * v[tree.idx_v(i) + k];
      }
      const Eigen::Matrix3d R_dot_expected = X.rotation * Skew(V_JB.head<3>());
      // The body origin moves at R_JB v_B (plus nothing from rotation: it is the origin).
      const Eigen::Vector3d p_dot_expected = X.rotation * V_JB.tail<3>();
      const double error = std::max((R_dot - R_dot_expected).cwiseAbs().maxCoeff(),
                                    (p_dot - p_dot_expected).cwiseAbs().maxCoeff());
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-8) << "body " << i;
    }
  }
  std::printf("  max |d/dt X_JB by difference - from CalcQDot| %.2e\n", worst);
}

// The quaternion rate keeps |q| constant: d/dt |q|^2 = 2 q . qdot = 0.
TEST(JointTypesTest, QuaternionRateIsTangent) {
  const KinematicTree tree = RandomMixedTree(6, 6, /*branched=*/false);
  std::mt19937 rng(10);
  const Eigen::VectorXd q = RandomConfiguration(tree, rng, 1.0);
  const Eigen::VectorXd v = RandomVector(rng, tree.nv(), 3.0);
  Eigen::VectorXd qdot(tree.nq());
  CalcQDot(tree, q, v, qdot);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i);
    if (tree.joint(i).type() == JointType::kSpherical) {
      EXPECT_NEAR(q.segment<4>(iq).dot(qdot.segment<4>(iq)), 0.0, 1e-15);
    }
    if (tree.joint(i).type() == JointType::kFree) {
      EXPECT_NEAR(q.segment<4>(iq + 3).dot(qdot.segment<4>(iq + 3)), 0.0, 1e-15);
    }
  }
}

// A free body in zero gravity with no force: ABA gives the Euler equations' accelerations, and
// integrating q with CalcQDot conserves kinetic energy and the world-frame angular momentum.
TEST(JointTypesTest, FreeBodyTumblesWithConstantEnergyAndMomentum) {
  BodySpec body;
  body.joint = Joint::Free();
  body.inertia = SpatialInertia(2.0, Eigen::Vector3d(0.1, -0.05, 0.02),
                                Eigen::Vector3d(0.1, 0.2, 0.35).asDiagonal());
  const KinematicTree tree({body}, Eigen::Vector3d::Zero());
  KinematicTreeData data(tree);
  Eigen::VectorXd q(7), v(6), qdot(7);
  NeutralConfiguration(tree, q);
  v << 1.0, 3.0, -0.5, 0.2, 0.0, 0.1;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  auto momentum_W = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    ForwardKinematics(tree, &data, q, v);
    const Pose& X_WB = data.X_WB[0];
    return X_WB.ActForce(tree.body(0).inertia.Apply(data.V[0]));
  };
  ForwardKinematics(tree, &data, q, v);
  const double e0 = KineticEnergy(tree, data);
  const Vector6d h0 = momentum_W(q, v);
  const double dt = 1e-3;
  auto f = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd* dq,
               Eigen::VectorXd* dv) {
    dq->resize(7);
    CalcQDot(tree, q, v, *dq);
    *dv = Aba(tree, &data, q, v, zero);
  };
  for (int step = 0; step < 2000; ++step) {
    Eigen::VectorXd k1q, k1v, k2q, k2v, k3q, k3v, k4q, k4v;
    f(q, v, &k1q, &k1v);
    f(q + 0.5 * dt * k1q, v + 0.5 * dt * k1v, &k2q, &k2v);
    f(q + 0.5 * dt * k2q, v + 0.5 * dt * k2v, &k3q, &k3v);
    f(q + dt * k3q, v + dt * k3v, &k4q, &k4v);
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    NormalizeQuaternions(tree, q);
  }
  ForwardKinematics(tree, &data, q, v);
  EXPECT_NEAR(KineticEnergy(tree, data), e0, 1e-9 * e0);
  EXPECT_LT((momentum_W(q, v) - h0).norm(), 1e-9 * h0.norm());
}

TEST(JointTypesTest, SizeMismatchThrows) {
  const KinematicTree tree = RandomMixedTree(4, 1, /*branched=*/false);
  Eigen::VectorXd q(tree.nq()), v(tree.nv()), qdot(tree.nq() - 1);
  EXPECT_THROW(CalcQDot(tree, q, v, qdot), std::logic_error);
  EXPECT_THROW(NeutralConfiguration(tree, v), std::logic_error);
  EXPECT_THROW(NormalizeQuaternions(tree, v), std::logic_error);
}

}  // namespace
}  // namespace twinblocks::multibody
