// Numerical inverse kinematics of serial chains (ChainIk): 1,000 random reachable targets on
// the reference 6R arm (full pose), a random 7-joint chain with prismatic joints (full pose),
// and the e_GRASP finger of Mattar 2013 (position only, its +-45 deg limits), each checked by
// the tree's own forward kinematics to 1e-9 m and 1e-9 rad (acceptance K2 of issue 44); then
// limits, weights, a chain from an inner base, out-of-reach targets and bad chains.

#include "physics/multibody/chain_ik.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/dh.h"
#include "physics/multibody/finger_kinematics.h"
#include "tests/support/chain_ik_targets.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomWithin;
using testing::SolveRandomTargets;
using testing::Tally;
using testing::TreePose;

constexpr double kChainPi = std::numbers::pi;
constexpr double kChainDeg = kChainPi / 180.0;
constexpr double kChainTol = 1e-9;  // m and rad: the acceptance's tolerance

KinematicTree EGraspFingerTree() {
  std::vector<DhLink> links(3);
  const double a[3] = {0.010, 0.045, 0.030}, alpha[3] = {90 * kChainDeg, 0, 0};
  for (int i = 0; i < 3; ++i) {
    links[i].a = a[i];
    links[i].alpha = alpha[i];
    links[i].mass = 0.01;
    links[i].inertia_com = 1e-6 * Eigen::Matrix3d::Identity();
  }
  return BuildStandardDhTree(links, Eigen::Vector3d::Zero());
}

/// The fingertip: DH frame 3's origin, fixed in body 2 at Dx(a_3) Rx(alpha_3).
Pose EGraspTipInBody() { return StandardDhTransform(0.0, 0.030, 0.0, 0.0); }

TEST(ChainIkTest, ReferenceArmReachesRandomPosesToTheTolerance) {
  const KinematicTree tree = testing::ReferenceArm();
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(6, -kChainPi);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(6, kChainPi);
  const Tally t = SolveRandomTargets(tree, 5, Pose::Translation({0, 0, 0.12}), lower, upper, {});
  EXPECT_GE(t.solved, 999);
  EXPECT_LE(t.worst_position, kChainTol);
  EXPECT_LE(t.worst_rotation, kChainTol);
}

TEST(ChainIkTest, SevenJointChainWithPrismaticJointsReachesRandomPoses) {
  const KinematicTree tree = testing::RandomTree(7, 11, false);  // joint 5 is prismatic
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(7, -kChainPi);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(7, kChainPi);
  const Tally t = SolveRandomTargets(tree, 6, Pose::Translation({0.1, 0, 0}), lower, upper, {});
  EXPECT_GE(t.solved, 999);
  EXPECT_LE(t.worst_position, kChainTol);
  EXPECT_LE(t.worst_rotation, kChainTol);
}

TEST(ChainIkTest, EGraspFingerReachesRandomFingertipPositionsWithinItsLimits) {
  const KinematicTree tree = EGraspFingerTree();
  // The tree is the finger of the closed form: the same tip for the same q.
  const Eigen::Vector3d q_a(15 * kChainDeg, 30 * kChainDeg, 40 * kChainDeg);
  FingerGeometry g;
  g.l1 = 0.010, g.l2 = 0.045, g.l3 = 0.030;
  EXPECT_LT(
      (TreePose(tree, 2, EGraspTipInBody(), q_a).translation - FingertipPosition(g, q_a)).norm(),
      1e-15);
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(3, -45 * kChainDeg);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(3, 45 * kChainDeg);
  IkOptions options;
  options.position_only = true;
  const Tally t = SolveRandomTargets(tree, 2, EGraspTipInBody(), lower, upper, options);
  EXPECT_GE(t.solved, 999);
  EXPECT_LE(t.worst_position, kChainTol);
}

TEST(ChainIkTest, WarmStartNearTheSolutionTakesFewIterations) {
  const KinematicTree tree = testing::ReferenceArm();
  ChainIk ik(tree, 5, Pose(), Eigen::VectorXd::Constant(6, -kChainPi),
             Eigen::VectorXd::Constant(6, kChainPi));
  Eigen::VectorXd q_true(6);
  q_true << 0.3, -0.4, 0.5, 0.2, 0.6, -0.1;
  const Pose target = TreePose(tree, 5, Pose(), q_true);
  const Eigen::VectorXd start = q_true + Eigen::VectorXd::Constant(6, 1e-3);
  Eigen::VectorXd q(6);
  const IkResult r = ik.Solve(target, start, {}, q);
  EXPECT_TRUE(r.success);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_LE(r.iterations, 5);            // quadratic convergence from 1e-3 rad
  EXPECT_LT((q - q_true).norm(), 1e-8);  // the nearby branch, not another one
}

TEST(ChainIkTest, LimitsHoldAndAnUnreachableTargetIsReportedWithTheBestConfiguration) {
  const KinematicTree tree = EGraspFingerTree();
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(3, -45 * kChainDeg);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(3, 45 * kChainDeg);
  ChainIk ik(tree, 2, EGraspTipInBody(), lower, upper);
  IkOptions options;
  options.position_only = true;
  options.restarts = 3;
  Eigen::VectorXd q(3);
  // Beyond the stretched finger's reach (85 mm).
  Pose far;
  far.translation = Eigen::Vector3d(0.2, 0.0, 0.0);
  IkResult r = ik.Solve(far, Eigen::VectorXd::Zero(3), options, q);
  EXPECT_FALSE(r.success);
  EXPECT_EQ(r.attempts, 4);
  EXPECT_TRUE(q.allFinite());
  EXPECT_NEAR(r.position_error, 0.2 - 0.085, 1e-9);  // the stretched finger, q = 0
  // Reachable by the arm but only with the distal joint beyond +45 deg: the best
  // configuration sits on the limit.
  const Eigen::Vector3d bent = FingertipPosition({0.010, 0.045, 0.030}, {0, 0, 80 * kChainDeg});
  far.translation = bent;
  r = ik.Solve(far, Eigen::VectorXd::Zero(3), options, q);
  EXPECT_FALSE(r.success);
  EXPECT_GT(r.position_error, 1e-3);
  EXPECT_LE(q.maxCoeff(), 45 * kChainDeg);
  EXPECT_GE(q.minCoeff(), -45 * kChainDeg);
}

TEST(ChainIkTest, ZeroWeightsFreeTheirAxes) {
  const KinematicTree tree = testing::ReferenceArm();
  ChainIk ik(tree, 5, Pose(), Eigen::VectorXd::Constant(6, -kChainPi),
             Eigen::VectorXd::Constant(6, kChainPi));
  Eigen::VectorXd q_true(6);
  q_true << 0.3, -0.4, 0.5, 0.2, 0.6, -0.1;
  Pose target = TreePose(tree, 5, Pose(), q_true);
  // A rotation about the base's z axis that the zero weight frees: the position still holds.
  target.rotation =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ()).toRotationMatrix() * target.rotation;
  IkOptions options;
  options.weights << 1, 1, 0, 1, 1, 1;
  Eigen::VectorXd q(6);
  const IkResult r = ik.Solve(target, q_true, options, q);
  EXPECT_TRUE(r.success);
  const Pose reached = TreePose(tree, 5, Pose(), q);
  EXPECT_LT((reached.translation - target.translation).norm(), kChainTol);
  const Eigen::Vector3d w =
      Eigen::AngleAxisd(target.rotation * reached.rotation.transpose()).angle() *
      Eigen::AngleAxisd(target.rotation * reached.rotation.transpose()).axis();
  EXPECT_LT(w.head<2>().norm(), kChainTol);
}

TEST(ChainIkTest, ChainFromAnInnerBodyAndJointsOffTheChainKeepTheirValues) {
  const KinematicTree tree = testing::RandomTree(8, 5, true);  // branched
  // A chain from body b's parent to b.
  int tip = tree.num_bodies() - 1;
  while (tree.parent(tip) < 0) --tip;
  const int base = tree.parent(tip);
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(tree.nq(), -kChainPi);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(tree.nq(), kChainPi);
  ChainIk ik(tree, tip, Pose(), lower, upper, base);
  EXPECT_EQ(ik.num_joints(), 1);
  Eigen::VectorXd q_true = Eigen::VectorXd::Constant(tree.nq(), 0.2);
  q_true[tree.idx_q(tip)] = 0.9;
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, q_true);
  const Pose target = data.X_WB[base].Inverse() * data.X_WB[tip];
  Eigen::VectorXd start = Eigen::VectorXd::Constant(tree.nq(), 0.2);
  start[tree.idx_q(tip)] = 0.0;
  Eigen::VectorXd q(tree.nq());
  const IkResult r = ik.Solve(target, start, {}, q);
  EXPECT_TRUE(r.success);
  EXPECT_LT((q - q_true).norm(), 1e-9);
}

TEST(ChainIkTest, BadChainsAreRefusedWithTheReason) {
  const KinematicTree tree = testing::RandomTree(6, 5, true);
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(tree.nq(), -1.0);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(tree.nq(), 1.0);
  // A base that is not between the root and the tip: find two bodies on different branches.
  int a = -1, b = -1;
  for (int i = 0; i < tree.num_bodies() && a < 0; ++i) {
    for (int j = 0; j < tree.num_bodies(); ++j) {
      bool ancestor = false;
      for (int k = j; k >= 0; k = tree.parent(k)) ancestor = ancestor || k == i;
      if (i != j && !ancestor) {
        a = i, b = j;
        break;
      }
    }
  }
  ASSERT_GE(a, 0);
  try {
    ChainIk(tree, b, Pose(), lower, upper, a);
    ADD_FAILURE() << "expected the chain to be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not connect"), std::string::npos) << e.what();
  }
  Eigen::VectorXd crossed = upper;
  crossed[0] = -2.0;
  EXPECT_THROW(ChainIk(tree, 0, Pose(), lower, crossed), std::invalid_argument);
  EXPECT_THROW(ChainIk(tree, 0, Pose(), lower.head(2), upper), std::invalid_argument);
  std::vector<BodySpec> ball(1);
  ball[0].joint = Joint::Spherical();
  ball[0].inertia = SpatialInertia(1.0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity());
  const KinematicTree with_ball(ball, Eigen::Vector3d::Zero());
  EXPECT_THROW(ChainIk(with_ball, 0, Pose(), Eigen::VectorXd::Zero(4), Eigen::VectorXd::Zero(4)),
               std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::multibody
