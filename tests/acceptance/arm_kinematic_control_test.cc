// Experiment E3: closed-form inverse kinematics drives the motion-actuated arm along the circle;
// forward kinematics of the measured joint angles, and a transform sensor on the simulated
// tool frame, reproduce the circle to below 1e-9 m with the orientation held.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(ArmKinematicControl, ToolFollowsTheCircleWithOrientationHeld) {
  const RunOutput out = RunModelFile("models/robot6dof/e3_kinematic_control.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  std::vector<std::vector<double>> fk_err, tool, rot_err, rot;
  for (int i = 0; i < 3; ++i) {
    fk_err.push_back(Column(out.recording, "position_error[" + std::to_string(i) + "]"));
    tool.push_back(Column(out.recording, "tool_position[" + std::to_string(i) + "]"));
  }
  for (int i = 0; i < 9; ++i) {
    rot_err.push_back(Column(out.recording, "rotation_error[" + std::to_string(i) + "]"));
    rot.push_back(Column(out.recording, "tool_rotation[" + std::to_string(i) + "]"));
  }
  const double held[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};
  double worst_fk = 0.0, worst_sensor = 0.0, worst_rot = 0.0, swept = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    // The circle, independently: theta from eq. 23 with T = 2 s, held after.
    const double s = std::min(t[r] / 2.0, 1.0);
    const double theta = 2 * M_PI * (s - std::sin(2 * M_PI * s) / (2 * M_PI));
    const double p[3] = {0.6 + 0.1 * std::cos(theta), 0.1 * std::sin(theta), 0.5};
    for (int i = 0; i < 3; ++i) {
      worst_fk = std::max(worst_fk, std::abs(fk_err[i][r]));
      worst_sensor = std::max(worst_sensor, std::abs(tool[i][r] - p[i]));
    }
    for (int i = 0; i < 9; ++i) {
      worst_rot = std::max(worst_rot, std::abs(rot_err[i][r]));
      worst_rot = std::max(worst_rot, std::abs(rot[i][r] - held[i]));
    }
    swept = std::max(swept, theta);
  }
  EXPECT_NEAR(swept, 2 * M_PI, 1e-12);  // the whole circle
  EXPECT_LT(worst_fk, 1e-9);
  EXPECT_LT(worst_sensor, 1e-9);
  EXPECT_LT(worst_rot, 1e-9);
  RecordProperty("max_fk_position_error_m", Figure(worst_fk));
  RecordProperty("max_sensor_position_error_m", Figure(worst_sensor));
  RecordProperty("max_rotation_error", Figure(worst_rot));
}

}  // namespace
}  // namespace twinblocks::testing
