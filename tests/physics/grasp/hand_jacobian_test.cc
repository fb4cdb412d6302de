#include "physics/grasp/hand_jacobian.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "physics/grasp/grasp_matrix.h"
#include "physics/multibody/algorithms.h"
#include "tests/physics/grasp/grasp_test_helpers.h"

namespace twinblocks::grasp {
namespace {

using multibody::BodySpec;
using multibody::Joint;
using multibody::KinematicTree;
using multibody::Pose;

// A small finger: a base turning about z, then two links bending about y (0.04 m and 0.03 m),
// and a second fingertip branching off the base about x.
KinematicTree GraspTestHand() {
  std::vector<BodySpec> bodies(4);
  const multibody::SpatialInertia link(0.05, Eigen::Vector3d(0.01, 0.0, 0.0),
                                       1e-6 * Eigen::Matrix3d::Identity());
  bodies[0].name = "base";
  bodies[0].joint = Joint::Revolute(Eigen::Vector3d::UnitZ());
  bodies[0].X_PJ = Pose::Translation(Eigen::Vector3d(0.0, 0.0, 0.1));
  bodies[1].name = "proximal";
  bodies[1].parent = 0;
  bodies[1].joint = Joint::Revolute(Eigen::Vector3d::UnitY());
  bodies[1].X_PJ = Pose::Translation(Eigen::Vector3d(0.02, 0.0, 0.0));
  bodies[2].name = "distal";
  bodies[2].parent = 1;
  bodies[2].joint = Joint::Revolute(Eigen::Vector3d(0.0, 1.0, 0.2));
  bodies[2].X_PJ = Pose(multibody::Rx(0.3), Eigen::Vector3d(0.04, 0.0, 0.0));
  bodies[3].name = "thumb";
  bodies[3].parent = 0;
  bodies[3].joint = Joint::Revolute(Eigen::Vector3d::UnitX());
  bodies[3].X_PJ = Pose::Translation(Eigen::Vector3d(-0.02, 0.01, 0.0));
  for (BodySpec& b : bodies) b.inertia = link;
  return KinematicTree(bodies, Eigen::Vector3d(0.0, 0.0, -9.81));
}

// H3. J_h against central differences of the contact points over the joint angles: for
// revolute joints v = qdot, so column k of contact i's rows is
//   [n t1 t2]^T (p_i(q + h e_k) - p_i(q - h e_k)) / 2h
// with the frames held at q, and, for a soft finger, n^T of the angular velocity, from the
// rotation: vee((R(q + h) - R(q - h)) / 2h R(q)^T). h = 1e-6 leaves a truncation error of
// h^2 |p'''| ~ 1e-13 and a rounding error of eps |p| / h ~ 2e-11: tolerance 1e-7 (the brief's)
// holds with margin; the measured worst is recorded.
TEST(HandJacobianTest, MatchesFiniteDifferences) {
  const KinematicTree tree = GraspTestHand();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(-1.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 10; ++trial) {
    Eigen::VectorXd q(tree.nq());
    for (int k = 0; k < tree.nq(); ++k) q[k] = angle(rng);
    const std::vector<std::pair<int, Eigen::Vector3d>> points = {
        {2, Eigen::Vector3d(0.03, 0.0, 0.008)},
        {3, Eigen::Vector3d(0.0, 0.02, 0.005)},
        {1, Eigen::Vector3d(0.02, -0.004, 0.0)}};
    std::vector<HandContact> contacts;
    for (const auto& [body, p_B] : points) {
      HandContact contact;
      contact.body = body;
      contact.p_W = testing::BodyPoseAt(tree, q, body).TransformPoint(p_B);
      contact.R_WC =
          CalcContactFrame(Eigen::Vector3d(angle(rng), angle(rng), angle(rng) + 2.0).normalized());
      contacts.push_back(contact);
    }
    Eigen::MatrixXd J;
    CalcHandJacobian(tree, q, contacts, ContactModel::kSoftFinger, &J);
    ASSERT_EQ(J.rows(), 12);
    ASSERT_EQ(J.cols(), tree.nv());
    const double h = 1e-6;
    for (int k = 0; k < tree.nv(); ++k) {
      Eigen::VectorXd qp = q, qm = q;
      qp[k] += h;
      qm[k] -= h;
      for (size_t i = 0; i < contacts.size(); ++i) {
        const auto& [body, p_B] = points[i];
        const Pose Xp = testing::BodyPoseAt(tree, qp, body),
                   Xm = testing::BodyPoseAt(tree, qm, body);
        const Eigen::Vector3d v = (Xp.TransformPoint(p_B) - Xm.TransformPoint(p_B)) / (2 * h);
        const Eigen::Matrix3d W = (Xp.rotation - Xm.rotation) / (2 * h) *
                                  testing::BodyPoseAt(tree, q, body).rotation.transpose();
        const Eigen::Vector3d w(W(2, 1), W(0, 2), W(1, 0));
        Eigen::Vector4d expected;
        expected << contacts[i].R_WC.transpose() * v, contacts[i].R_WC.col(0).dot(w);
        const double error = (J.block<4, 1>(4 * i, k) - expected).cwiseAbs().maxCoeff();
        EXPECT_LT(error, 1e-7) << "trial " << trial << " contact " << i << " joint " << k;
        worst = std::max(worst, error);
      }
    }
    // The hard-finger and point models are the same rows without the torsional one.
    Eigen::MatrixXd J_hard, J_point;
    CalcHandJacobian(tree, q, contacts, ContactModel::kHardFinger, &J_hard);
    CalcHandJacobian(tree, q, contacts, ContactModel::kPointWithoutFriction, &J_point);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(J_hard.middleRows(3 * i, 3), J.middleRows(4 * i, 3));
      EXPECT_EQ(J_point.row(i), J.row(4 * i));
    }
  }
  std::printf("hand Jacobian vs central differences: worst %.3g\n", worst);
}

// Manipulability: a square full-rank J gives |det J|; a J with more rows than columns (the
// usual hand: more contact components than joints) is rank deficient and reports the product
// of its nonzero singular values. Tolerance 1e-14 relative.
TEST(HandJacobianTest, Manipulability) {
  Eigen::Matrix3d A;
  A << 2, 1, 0, 0, 3, 1, 1, 0, 1;
  const Manipulability square = CalcManipulability(A);
  EXPECT_TRUE(square.full_row_rank);
  EXPECT_EQ(square.rank, 3);
  EXPECT_NEAR(square.value, std::abs(A.determinant()), 1e-14 * 7);
  Eigen::MatrixXd tall(4, 2);
  tall << 3, 0, 0, 2, 0, 0, 0, 0;
  const Manipulability deficient = CalcManipulability(tall);
  EXPECT_FALSE(deficient.full_row_rank);
  EXPECT_EQ(deficient.rank, 2);
  EXPECT_NEAR(deficient.value, 6.0, 1e-14 * 6);
  Eigen::MatrixXd wide(2, 3);
  wide << 1, 0, 1, 0, 1, 0;
  EXPECT_NEAR(CalcManipulability(wide).value, std::sqrt((wide * wide.transpose()).determinant()),
              1e-14);
}

TEST(HandJacobianTest, BadInputThrows) {
  const KinematicTree tree = GraspTestHand();
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(tree.nq());
  Eigen::MatrixXd J;
  HandContact contact;
  contact.body = 7;
  EXPECT_THROW(CalcHandJacobian(tree, q, {contact}, ContactModel::kHardFinger, &J),
               std::invalid_argument);
  contact.body = 1;
  contact.R_WC(0, 0) = 2.0;
  EXPECT_THROW(CalcHandJacobian(tree, q, {contact}, ContactModel::kHardFinger, &J),
               std::invalid_argument);
  contact.R_WC.setIdentity();
  EXPECT_THROW(
      CalcHandJacobian(tree, Eigen::VectorXd::Zero(2), {contact}, ContactModel::kHardFinger, &J),
      std::invalid_argument);
  Eigen::VectorXd nan_q = q;
  nan_q[0] = std::nan("");
  EXPECT_THROW(CalcHandJacobian(tree, nan_q, {contact}, ContactModel::kHardFinger, &J),
               std::invalid_argument);
  EXPECT_THROW(CalcManipulability(Eigen::MatrixXd()), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
