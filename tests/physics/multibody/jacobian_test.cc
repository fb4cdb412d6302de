#include "physics/multibody/jacobian.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomTree;
using testing::RandomVector;
using testing::ReferenceArm;

Pose RandomFramePose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Quaterniond rot = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
  return Pose(rot.toRotationMatrix(), 0.3 * Eigen::Vector3d(u(rng), u(rng), u(rng)));
}

// X_WF by ForwardKinematics.
Pose FramePose(const KinematicTree& tree, KinematicTreeData* data, const Eigen::VectorXd& q,
               int body, const Pose& X_BF) {
  ForwardKinematics(tree, data, q);
  return data->X_WB[body] * X_BF;
}

// The Jacobian by central differences of the frame's pose: column k is
// [vee(dR/dq_k R^T); dp/dq_k]. Valid where v = qdot (revolute and prismatic joints).
Eigen::MatrixXd NumericJacobian(const KinematicTree& tree, const Eigen::VectorXd& q, int body,
                                const Pose& X_BF) {
  KinematicTreeData data(tree);
  const double h = 1e-6;
  const Pose X0 = FramePose(tree, &data, q, body, X_BF);
  Eigen::MatrixXd J(6, tree.nv());
  for (int k = 0; k < tree.nv(); ++k) {
    Eigen::VectorXd qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    const Pose Xp = FramePose(tree, &data, qp, body, X_BF);
    const Pose Xm = FramePose(tree, &data, qm, body, X_BF);
    const Eigen::Matrix3d W = (Xp.rotation - Xm.rotation) / (2 * h) * X0.rotation.transpose();
    J.col(k).head<3>() =
        Eigen::Vector3d(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1)) / 2;
    J.col(k).tail<3>() = (Xp.translation - Xm.translation) / (2 * h);
  }
  return J;
}

TEST(FrameJacobianTest, ReferenceArmMatchesFiniteDifferences) {
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  std::mt19937 rng(7);
  Eigen::MatrixXd J(6, tree.nv());
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, tree.nq(), M_PI);
    const Pose X_BF = RandomFramePose(rng);
    for (int body = 0; body < tree.num_bodies(); ++body) {
      ForwardKinematics(tree, &data, q);
      FrameJacobian(tree, data, body, X_BF, J);
      EXPECT_LT((J - NumericJacobian(tree, q, body, X_BF)).norm(), 1e-8)
          << "body " << body << ", trial " << trial;
    }
  }
}

TEST(FrameJacobianTest, RandomTreesMatchFiniteDifferences) {
  std::mt19937 rng(11);
  for (bool branched : {false, true}) {
    const KinematicTree tree = RandomTree(12, branched ? 3 : 4, branched);
    KinematicTreeData data(tree);
    Eigen::MatrixXd J(6, tree.nv());
    const Eigen::VectorXd q = RandomVector(rng, tree.nq(), 1.5);
    const Pose X_BF = RandomFramePose(rng);
    for (int body = 0; body < tree.num_bodies(); ++body) {
      ForwardKinematics(tree, &data, q);
      FrameJacobian(tree, data, body, X_BF, J);
      EXPECT_LT((J - NumericJacobian(tree, q, body, X_BF)).norm(), 1e-8) << "body " << body;
    }
  }
}

// J v against the body velocities of ForwardKinematics(q, v): V_WB in B moved to F's origin
// and rotated into W.
TEST(FrameJacobianTest, JacobianTimesVelocityIsFrameVelocity) {
  std::mt19937 rng(5);
  for (unsigned seed : {1u, 2u, 3u}) {
    const KinematicTree tree = RandomTree(10, seed, seed != 1u);
    KinematicTreeData data(tree);
    Eigen::MatrixXd J(6, tree.nv());
    const Eigen::VectorXd q = RandomVector(rng, tree.nq(), 2.0);
    const Eigen::VectorXd v = RandomVector(rng, tree.nv(), 2.0);
    ForwardKinematics(tree, &data, q, v);
    for (int body = 0; body < tree.num_bodies(); ++body) {
      const Pose X_BF = RandomFramePose(rng);
      FrameJacobian(tree, data, body, X_BF, J);
      const Eigen::Matrix3d& R_WB = data.X_WB[body].rotation;
      const Eigen::Vector3d w_B = data.V[body].head<3>();
      const Eigen::Vector3d v_B = data.V[body].tail<3>();
      Vector6d expected;
      expected.head<3>() = R_WB * w_B;
      expected.tail<3>() = R_WB * (v_B + w_B.cross(X_BF.translation));
      EXPECT_LT((J * v - expected).norm(), 1e-12 * (1.0 + expected.norm())) << "body " << body;
    }
  }
}

// A planar two-link arm about z, links along x: the textbook closed form.
TEST(FrameJacobianTest, PlanarTwoLinkClosedForm) {
  const double l1 = 0.7, l2 = 0.4;
  std::vector<BodySpec> bodies(2);
  bodies[0].parent = -1;
  bodies[1].parent = 0;
  bodies[1].X_PJ = Pose::Translation({l1, 0, 0});
  for (BodySpec& b : bodies)
    b.inertia = SpatialInertia(1.0, Eigen::Vector3d::Zero(), 0.01 * Eigen::Matrix3d::Identity());
  const KinematicTree tree(bodies, Eigen::Vector3d(0, -9.81, 0));
  KinematicTreeData data(tree);
  const double q1 = 0.3, q2 = -1.1;
  ForwardKinematics(tree, &data, Eigen::Vector2d(q1, q2));
  Eigen::MatrixXd J(6, 2);
  FrameJacobian(tree, data, 1, Pose::Translation({l2, 0, 0}), J);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, 2);
  expected(2, 0) = expected(2, 1) = 1.0;
  expected(3, 0) = -l1 * std::sin(q1) - l2 * std::sin(q1 + q2);
  expected(3, 1) = -l2 * std::sin(q1 + q2);
  expected(4, 0) = l1 * std::cos(q1) + l2 * std::cos(q1 + q2);
  expected(4, 1) = l2 * std::cos(q1 + q2);
  EXPECT_LT((J - expected).norm(), 1e-15);
}

TEST(FrameJacobianTest, WorldFrameIsZeroAndSizesAreChecked) {
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, Eigen::VectorXd::Constant(6, 0.4));
  Eigen::MatrixXd J = Eigen::MatrixXd::Ones(6, 6);
  FrameJacobian(tree, data, -1, Pose::Translation({1, 2, 3}), J);
  EXPECT_EQ(J.norm(), 0.0);
  Eigen::MatrixXd wrong(6, 5);
  EXPECT_THROW(FrameJacobian(tree, data, 2, Pose(), wrong), std::logic_error);
  EXPECT_THROW(FrameJacobian(tree, data, 6, Pose(), J), std::logic_error);
}

// Two bodies of a branched tree holding one world point: the relative point Jacobian J_a - J_b
// as AddPointJacobian accumulates it, against the frame Jacobians' translational rows at that
// point. Also: the world adds nothing, and sizes are checked.
TEST(AddPointJacobianTest, RelativePointJacobianIsTheFrameJacobiansDifference) {
  std::mt19937 rng(13);
  const KinematicTree tree = RandomTree(9, 2, true);
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, RandomVector(rng, tree.nq(), 1.5));
  Eigen::MatrixXd J_a(6, tree.nv()), J_b(6, tree.nv());
  Eigen::MatrixXd J_rel(3, tree.nv());
  for (int a = 0; a < tree.num_bodies(); ++a) {
    const int b = (a + 4) % tree.num_bodies();
    const Eigen::Vector3d p_W = 0.5 * RandomVector(rng, 3, 1.0);
    FrameJacobian(
        tree, data, a,
        Pose::Translation(data.X_WB[a].rotation.transpose() * (p_W - data.X_WB[a].translation)),
        J_a);
    FrameJacobian(
        tree, data, b,
        Pose::Translation(data.X_WB[b].rotation.transpose() * (p_W - data.X_WB[b].translation)),
        J_b);
    J_rel.setConstant(0.25);
    AddPointJacobian(tree, data, a, p_W, 1.0, J_rel);
    AddPointJacobian(tree, data, b, p_W, -1.0, J_rel);
    AddPointJacobian(tree, data, -1, p_W, 1.0, J_rel);
    const Eigen::MatrixXd expected =
        Eigen::MatrixXd::Constant(3, tree.nv(), 0.25) + J_a.bottomRows<3>() - J_b.bottomRows<3>();
    EXPECT_LT((J_rel - expected).norm(), 1e-14) << "bodies " << a << ", " << b;
  }
  Eigen::MatrixXd wrong(6, tree.nv());
  EXPECT_THROW(AddPointJacobian(tree, data, 0, Eigen::Vector3d::Zero(), 1.0, wrong),
               std::logic_error);
  EXPECT_THROW(AddPointJacobian(tree, data, tree.num_bodies(), Eigen::Vector3d::Zero(), 1.0, J_rel),
               std::logic_error);
}

}  // namespace
}  // namespace twinblocks::multibody
