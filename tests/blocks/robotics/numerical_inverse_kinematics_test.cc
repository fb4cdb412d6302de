// NumericalInverseKinematics on its own (RobotHarness): it reaches a pose of the reference
// arm, keeps its output within the limits it is given, refuses bad parameters naming them,
// and solves without allocating once configured.

#include "blocks/robotics/numerical_inverse_kinematics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "physics/multibody/algorithms.h"
#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/robotics/robot_harness.h"
#include "tests/physics/malloc_count.h"
#include "tests/support/test_trees.h"

namespace twinblocks::blocks {
namespace {

using multibody::KinematicTree;
using multibody::Pose;
using multibody::RobotModel;
using ::testing::HasSubstr;
using testing::ParamTexts;
using testing::RobotHarness;

RobotModel IkReferenceArm() {
  RobotModel robot;
  robot.tree = std::make_shared<const KinematicTree>(multibody::testing::ReferenceArm());
  robot.frame_body = 5;
  robot.X_BF = Pose::Translation({0, 0, 0.12});
  robot.name = "arm";
  return robot;  // no limits: the block takes +-infinity
}

Pose IkArmPose(const RobotModel& robot, const Eigen::VectorXd& q) {
  multibody::KinematicTreeData data(*robot.tree);
  multibody::ForwardKinematics(*robot.tree, &data, q);
  return data.X_WB[robot.frame_body] * robot.X_BF;
}

void SetIkTarget(RobotHarness& h, const Pose& X) {
  h.SetInput("position", X.translation);
  Eigen::VectorXd R(9);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) R[3 * r + c] = X.rotation(r, c);
  }
  h.SetInput("rotation", R);
}

const ParamTexts kIkParams = {{"robot", "arm"}, {"frame", "j6.F"}};

TEST(NumericalInverseKinematicsBlockTest, ReachesAPoseWithinTheLimitsItIsGiven) {
  const RobotModel robot = IkReferenceArm();
  ParamTexts texts = kIkParams;
  texts["lower"] = "-2.5";
  texts["upper"] = "2.5";
  RobotHarness h("NumericalInverseKinematics", texts, robot, {3, 9});
  Eigen::VectorXd q_true(6);
  q_true << 0.4, -0.3, 0.6, 1.1, -0.7, 2.2;
  SetIkTarget(h, IkArmPose(robot, q_true));
  const Eigen::VectorXd q = h.Output("q");
  EXPECT_EQ(h.Output("success")[0], 1.0);
  EXPECT_LE(h.Output("error")[0], 1e-9);
  EXPECT_LE(h.Output("error")[1], 1e-9);
  EXPECT_LE(q.cwiseAbs().maxCoeff(), 2.5);
  const Pose reached = IkArmPose(robot, q);
  EXPECT_LT((reached.translation - IkArmPose(robot, q_true).translation).norm(), 1e-9);
}

TEST(NumericalInverseKinematicsBlockTest, BadParametersAreNamed) {
  const RobotModel robot = IkReferenceArm();
  const auto error = [&](const ParamTexts& extra) {
    ParamTexts texts = kIkParams;
    for (const auto& [name, value] : extra) texts[name] = value;
    try {
      RobotHarness h("NumericalInverseKinematics", texts, robot, {3, 9});
    } catch (const BlockError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(error({{"weights", "[1, 1, 1]"}}), HasSubstr("'weights' must be 6"));
  EXPECT_THAT(error({{"weights", "[0, 0, 0, 0, 0, 0]"}}), HasSubstr("nothing to solve"));
  EXPECT_THAT(error({{"lower", "[1, 1, 1, 1, 1, 1]"}, {"upper", "0"}}),
              HasSubstr("lower <= upper"));
  EXPECT_THAT(error({{"lower", "[1, 1]"}}), HasSubstr("expected 1 or nq = 6"));
  EXPECT_THAT(error({{"position_tolerance", "0"}}), HasSubstr("'position_tolerance' must be > 0"));
  EXPECT_THAT(error({{"max_iterations", "0"}}), HasSubstr("'max_iterations' must be 1"));
  EXPECT_THAT(error({{"restarts", "-1"}}), HasSubstr("'restarts' must be 0"));
  EXPECT_THAT(error({{"restarts", "1000"}, {"max_iterations", "10000"}}),
              HasSubstr("at most 1e6"));
}

TEST(NumericalInverseKinematicsBlockTest, SolvesWithoutAllocating) {
  if (!twinblocks::testing::kMallocCounted) GTEST_SKIP() << "allocations not counted here";
  const RobotModel robot = IkReferenceArm();
  RobotHarness h("NumericalInverseKinematics", kIkParams, robot, {3, 9});
  Eigen::VectorXd q(6);
  std::vector<Pose> targets;
  for (int k = 0; k < 20; ++k) {
    for (int i = 0; i < 6; ++i) q[i] = std::sin(1.3 * k + i);
    targets.push_back(IkArmPose(robot, q));
  }
  long allocations = 0;
  for (const Pose& X : targets) {
    SetIkTarget(h, X);  // the harness's vectors allocate; the block must not
    twinblocks::testing::StartCountingAllocations();
    h.CalcOutputs();
    allocations += twinblocks::testing::StopCountingAllocations();
    EXPECT_EQ(h.Output("success")[0], 1.0);
  }
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
