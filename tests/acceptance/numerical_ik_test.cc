// Issue 44, K2: numerical inverse kinematics on real 7-DOF arms read from URDF (the KUKA iiwa14
// and the Franka Panda of tests/data/urdf), with the robot model the compiler builds for the
// NumericalInverseKinematics block (its joint limits from the URDF): 1,000 random reachable
// full-pose targets each, at least 99.9 % solved to 1e-9 m and 1e-9 rad, within the limits.
// The reference 6R arm and the e_GRASP finger are in tests/physics/multibody/chain_ik_test.cc.
// Then the block in a model: it tracks a moving target and refuses bad limits with one line.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "compiler/compile.h"
#include "compiler/robot_model.h"
#include "model/model_error.h"
#include "physics/multibody/chain_ik.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/chain_ik_targets.h"
#include "xml/urdf_reader.h"

namespace twinblocks {
namespace {

const std::string kUrdf = std::string(TWINBLOCKS_TEST_DATA) + "/urdf/";

void ExpectSolvesRandomTargets(const std::string& file, const std::string& frame,
                               double first_lower) {
  if (!xml::UrdfSupported()) GTEST_SKIP() << "this build has no URDF support";
  const xml::UrdfImport imp = xml::ReadUrdfFile(kUrdf + file);
  const multibody::RobotModel robot = graph::CompileRobotModel(imp.model, "", frame);
  ASSERT_TRUE(robot.tree);
  EXPECT_NEAR(robot.lower[0], first_lower, 1e-12);  // the URDF's limit reached the model
  const multibody::testing::Tally t = multibody::testing::SolveRandomTargets(
      *robot.tree, robot.frame_body, robot.X_BF, robot.lower, robot.upper, {});
  EXPECT_GE(t.solved, 999) << file;
  EXPECT_LE(t.worst_position, 1e-9) << file;
  EXPECT_LE(t.worst_rotation, 1e-9) << file;
}

TEST(NumericalIk, Iiwa14ReachesRandomPosesWithinItsLimits) {
  ExpectSolvesRandomTargets("iiwa14_drake.urdf", "iiwa_joint_7.F", -2.96705972839);
}

TEST(NumericalIk, PandaReachesRandomPosesWithinItsLimits) {
  ExpectSolvesRandomTargets("panda.urdf", "panda_hand_joint.F", -2.8973);
}

}  // namespace
}  // namespace twinblocks
