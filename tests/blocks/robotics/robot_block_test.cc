// Tests of the blocks that compute with a robot model (RobotUser): ForwardKinematics,
// Jacobian, InverseDynamics, MassMatrix, GravityTorque, VelocityProductTorque. BlockHarness
// configures a block as it makes it, before a robot could be bound, so these tests run the
// blocks through RobotHarness, which binds the robot first, as the compiler does.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/jacobian.h"
#include "physics/multibody/robot_model.h"
#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/robotics/robot_harness.h"
#include "tests/support/test_trees.h"

namespace twinblocks::blocks {
namespace {

using multibody::KinematicTree;
using multibody::KinematicTreeData;
using multibody::Pose;
using multibody::RobotModel;
using multibody::testing::RandomVector;
using testing::CatchBlockError;
using ::testing::HasSubstr;
using testing::ParamTexts;
using testing::RobotHarness;

RobotModel ReferenceRobot(int frame_body = 5, Pose X_BF = Pose::Translation({0, 0, 0.12})) {
  RobotModel robot;
  robot.tree = std::make_shared<const KinematicTree>(multibody::testing::ReferenceArm());
  robot.frame_body = frame_body;
  robot.X_BF = X_BF;
  robot.name = "arm";
  return robot;
}

const ParamTexts kFrameParams = {{"robot", "arm"}, {"frame", "j6.F"}};
const ParamTexts kRobotParams = {{"robot", "arm"}};

TEST(RobotBlocksTest, ReportTheirRobotAndFrame) {
  const BlockType& t = testing::TypeOf("Jacobian");
  std::unique_ptr<Block> b = t.create(testing::MakeParams(t, kFrameParams));
  auto* user = dynamic_cast<multibody::RobotUser*>(b.get());
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->robot_path(), "arm");
  EXPECT_EQ(user->frame_path(), "j6.F");
  for (const char* type :
       {"InverseDynamics", "MassMatrix", "GravityTorque", "VelocityProductTorque"}) {
    std::unique_ptr<Block> b2 = testing::MakeBlock(type, kRobotParams);
    auto* u2 = dynamic_cast<multibody::RobotUser*>(b2.get());
    ASSERT_NE(u2, nullptr) << type;
    EXPECT_EQ(u2->frame_path(), "") << type;
    EXPECT_EQ(testing::TypeOf(type).category, "Robotics");
  }
}

TEST(RobotBlocksTest, UnboundOrMisfittingRobotIsAnError) {
  for (const char* type : {"ForwardKinematics", "Jacobian", "InverseDynamics", "MassMatrix",
                           "GravityTorque", "VelocityProductTorque"}) {
    std::unique_ptr<Block> b = testing::MakeBlock(
        type, kFrameParams.count("frame") && testing::TypeOf(type).FindParam("frame")
                  ? kFrameParams
                  : kRobotParams);
    std::vector<int> widths(b->num_inputs(), 6);
    EXPECT_THAT(CatchBlockError([&] { b->Configure(widths); }).what(), HasSubstr("no robot bound"))
        << type;
  }
  EXPECT_THAT(CatchBlockError([] {
                RobotHarness h("InverseDynamics", kRobotParams, ReferenceRobot(), {6, 5, 6});
              }).what(),
              HasSubstr("input 'qd' has width 5, expected nv = 6 of robot 'arm'"));
  EXPECT_THAT(
      CatchBlockError([] { RobotHarness h("Jacobian", kFrameParams, ReferenceRobot(7)); }).what(),
      HasSubstr("frame 'j6.F' is on body 7"));
  EXPECT_THAT(CatchBlockError([] {
                testing::MakeBlock("Jacobian", {{"robot", "arm"}});
              }).what(),
              HasSubstr("'frame' is required"));
}

TEST(ForwardKinematicsBlockTest, MatchesTheTreeAndIsRowMajor) {
  const Pose X_BF(multibody::Rx(0.3) * multibody::Rz(-0.2), Eigen::Vector3d(0.01, 0.02, 0.12));
  RobotHarness h("ForwardKinematics", kFrameParams, ReferenceRobot(5, X_BF));
  const KinematicTree tree = multibody::testing::ReferenceArm();
  KinematicTreeData data(tree);
  std::mt19937 rng(1);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, 6, 3.0);
    h.SetInput("q", q);
    multibody::ForwardKinematics(tree, &data, q);
    const Pose X_WF = data.X_WB[5] * X_BF;
    EXPECT_LT((h.Output("position") - X_WF.translation).norm(), 1e-15);
    const Eigen::VectorXd R = h.Output("rotation");
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) EXPECT_DOUBLE_EQ(R[3 * r + c], X_WF.rotation(r, c));
    }
  }
  // At q = 0 the reference arm's flange (frame 6) is at x = 0.15 + 0.4 + 0.1 m, z = 0.5 - 0.54
  // - 0.1 m (Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using Simscape Multibody",
  // Table 1 with the links folded down).
  RobotHarness flange("ForwardKinematics", kFrameParams, ReferenceRobot(5, Pose()));
  flange.SetInput("q", Eigen::VectorXd::Zero(6));
  const Eigen::VectorXd p = flange.Output("position");
  EXPECT_NEAR(p[0], 0.65, 1e-15);
  EXPECT_NEAR(p[1], 0.0, 1e-15);
  EXPECT_NEAR(p[2], 0.5 - 0.54 - 0.1, 1e-15);
}

TEST(JacobianBlockTest, RowMajorFrameJacobianThatDifferentiatesForwardKinematics) {
  const Pose X_BF = Pose::Translation({0.02, -0.01, 0.15});
  RobotHarness jac("Jacobian", kFrameParams, ReferenceRobot(5, X_BF));
  RobotHarness fk("ForwardKinematics", kFrameParams, ReferenceRobot(5, X_BF));
  EXPECT_EQ(jac.block().output_port(0).width, 36);
  std::mt19937 rng(2);
  const Eigen::VectorXd q = RandomVector(rng, 6, 2.0);
  jac.SetInput("q", q);
  const Eigen::VectorXd J = jac.Output("J");
  // Rows 3-5 by central differences of the position.
  const double h = 1e-6;
  for (int k = 0; k < 6; ++k) {
    Eigen::VectorXd qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    fk.SetInput("q", qp);
    const Eigen::Vector3d pp = fk.Output("position");
    fk.SetInput("q", qm);
    const Eigen::Vector3d pm = fk.Output("position");
    const Eigen::Vector3d dp = (pp - pm) / (2 * h);
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(J[(3 + r) * 6 + k], dp[r], 1e-8) << r << "," << k;
  }
  // Rows 0-2: every joint of the arm is revolute about its frame's z, so column k is z_k.
  const KinematicTree tree = multibody::testing::ReferenceArm();
  KinematicTreeData data(tree);
  multibody::ForwardKinematics(tree, &data, q);
  for (int k = 0; k < 6; ++k) {
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(J[r * 6 + k], data.X_WB[k].rotation(r, 2), 1e-15);
  }
}

TEST(InverseDynamicsBlockTest, EqualsMassMatrixVelocityProductAndGravityBlocks) {
  const RobotModel robot = ReferenceRobot(-1, Pose());
  RobotHarness id("InverseDynamics", kRobotParams, robot);
  RobotHarness mm("MassMatrix", kRobotParams, robot);
  RobotHarness grav("GravityTorque", kRobotParams, robot);
  RobotHarness vp("VelocityProductTorque", kRobotParams, robot);
  const KinematicTree& tree = *robot.tree;
  KinematicTreeData data(tree);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, 6, 3.0);
    const Eigen::VectorXd qd = RandomVector(rng, 6, 2.0);
    const Eigen::VectorXd qdd = RandomVector(rng, 6, 5.0);
    id.SetInput("q", q);
    id.SetInput("qd", qd);
    id.SetInput("qdd", qdd);
    mm.SetInput("q", q);
    grav.SetInput("q", q);
    vp.SetInput("q", q);
    vp.SetInput("qd", qd);
    const Eigen::VectorXd tau = id.Output("tau");
    const Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>> M(mm.Output("M").data());
    const Eigen::VectorXd Mv = mm.Output("M");
    const Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>> M_rm(Mv.data());
    EXPECT_LT((tau - (M_rm * qdd + vp.Output("tau") + grav.Output("tau"))).norm(),
              1e-10 * tau.norm());
    EXPECT_LT((tau - multibody::Rnea(tree, &data, q, qd, qdd)).norm(), 1e-12 * tau.norm());
    EXPECT_LT((M_rm - multibody::Crba(tree, &data, q)).norm(), 1e-14);
  }
}

TEST(GravityTorqueBlockTest, ArmStretchedOutHoldsItsWeightAtTheShoulder) {
  // With the arm folded at q = 0, joint 1 (vertical axis) carries no gravity torque, and
  // the vertical-plane joints 2 and 3 carry the moment of the links beyond them.
  const RobotModel robot = ReferenceRobot(-1, Pose());
  RobotHarness grav("GravityTorque", kRobotParams, robot);
  grav.SetInput("q", Eigen::VectorXd::Zero(6));
  const Eigen::VectorXd g = grav.Output("tau");
  EXPECT_NEAR(g[0], 0.0, 1e-12);
  KinematicTreeData data(*robot.tree);
  EXPECT_LT((g - multibody::NonlinearEffects(*robot.tree, &data, Eigen::VectorXd::Zero(6),
                                             Eigen::VectorXd::Zero(6)))
                .norm(),
            1e-14);
  EXPECT_GT(std::abs(g[1]), 1.0);
}

TEST(VelocityProductTorqueBlockTest, IsQuadraticInVelocityAndZeroAtRest) {
  const RobotModel robot = ReferenceRobot(-1, Pose());
  RobotHarness vp("VelocityProductTorque", kRobotParams, robot);
  std::mt19937 rng(4);
  const Eigen::VectorXd q = RandomVector(rng, 6, 3.0);
  const Eigen::VectorXd qd = RandomVector(rng, 6, 2.0);
  vp.SetInput("q", q);
  vp.SetInput("qd", Eigen::VectorXd::Zero(6));
  EXPECT_LT(vp.Output("tau").norm(), 1e-12);
  vp.SetInput("qd", qd);
  const Eigen::VectorXd c1 = vp.Output("tau");
  vp.SetInput("qd", 2.0 * qd);
  EXPECT_LT((vp.Output("tau") - 4.0 * c1).norm(), 1e-11 * c1.norm());
}

}  // namespace
}  // namespace twinblocks::blocks
