#include "physics/grasp/barrett_finger_ik.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "physics/grasp/barrett_hand.h"

namespace twinblocks::grasp {
namespace {

constexpr double kIkTestDeg = std::numbers::pi / 180.0;

// Round trip: the tip-sphere centre of the forward kinematics at (Theta2, Theta2 / 3) is
// reached again, for every finger at several spreads and closings inside (0, 140) deg and at
// both limits. Measured: Theta2 within 1e-12 rad, miss below 1e-6 deg (the brief's bound),
// distance below 1e-12 m.
TEST(BarrettFingerIkTest, ReachesPointsOfTheForwardKinematics) {
  for (int finger = 0; finger < 3; ++finger) {
    for (const double spread : {0.0, 37.0 * kIkTestDeg, 90.0 * kIkTestDeg, 180.0 * kIkTestDeg}) {
      for (const double theta2_deg : {0.0, 0.3, 17.0, 55.5, 90.0, 121.25, 139.9, 140.0}) {
        SCOPED_TRACE(::testing::Message()
                     << "finger " << finger << " spread " << spread << " theta2 " << theta2_deg);
        const double theta2 = theta2_deg * kIkTestDeg;
        const Eigen::Vector3d target =
            CalcBarrettFingerFrames(finger, spread, theta2, theta2 / 3.0).p_WS_W;
        const BarrettFingerIk ik = SolveBarrettFingerIk(finger, spread, target);
        EXPECT_NEAR(ik.theta2, theta2, 1e-12);
        EXPECT_NEAR(ik.theta3, ik.theta2 / 3.0, 1e-15);
        EXPECT_LT(ik.miss_deg, 1e-6);
        EXPECT_LT(ik.distance, 1e-12);
        EXPECT_LT((ik.p_WS_W - target).norm(), 1e-12);
      }
    }
  }
}

// A target moved off the finger's plane by h along the proximal axis z_2: the nearest point
// of the curve is the same, and the miss is the out-of-plane angle atan(h / rho), rho the
// in-plane distance from the proximal joint (1e-9 deg).
TEST(BarrettFingerIkTest, MissIncludesTheOutOfPlaneAngle) {
  const double spread = 30.0 * kIkTestDeg, theta2 = 60.0 * kIkTestDeg, h = 0.01;
  const BarrettFingerFrames frames = CalcBarrettFingerFrames(1, spread, theta2, theta2 / 3.0);
  const Eigen::Vector3d axis = frames.X_WP.rotation.col(2);
  const BarrettFingerIk ik = SolveBarrettFingerIk(1, spread, frames.p_WS_W + h * axis);
  EXPECT_NEAR(ik.theta2, theta2, 1e-12);
  const double rho = (frames.p_WS_W - frames.X_WP.translation).norm();
  EXPECT_NEAR(ik.miss_deg, std::atan(h / rho) / kIkTestDeg, 1e-9);
  EXPECT_NEAR(ik.distance, h, 1e-12);
}

// Along the ray from the proximal joint through a reachable tip centre, a target farther out
// is met with a small miss that the distance does not show: the miss measures direction only.
// A target behind the palm (towards -z_W) is out of reach: the finger stops at Theta2 = 0 (the
// golden-section search on the limit lands within 1e-12 rad of it).
TEST(BarrettFingerIkTest, DirectionAndLimits) {
  const BarrettFingerFrames frames =
      CalcBarrettFingerFrames(2, 0.0, 80.0 * kIkTestDeg, 80.0 / 3.0 * kIkTestDeg);
  const Eigen::Vector3d ray = frames.p_WS_W - frames.X_WP.translation;
  const BarrettFingerIk far = SolveBarrettFingerIk(2, 0.0, frames.X_WP.translation + 1.2 * ray);
  EXPECT_LT(far.miss_deg, 2.0);
  EXPECT_GT(far.distance, 0.1 * ray.norm());

  const BarrettFingerIk behind = SolveBarrettFingerIk(2, 0.0, {0.0, 0.2, -0.1});
  EXPECT_NEAR(behind.theta2, 0.0, 1e-12);
  EXPECT_GT(behind.miss_deg, 30.0);
  // A target at the proximal joint has no direction: counted as missed by 180 deg.
  EXPECT_EQ(SolveBarrettFingerIk(2, 0.0, frames.X_WP.translation).miss_deg, 180.0);
}

TEST(BarrettFingerIkTest, TipTargetAndBadInput) {
  const Eigen::Vector3d target = CalcBarrettTipTarget({1.0, 2.0, 3.0}, {0.0, 0.6, 0.8});
  EXPECT_LT((target - Eigen::Vector3d(1.0, 2.006, 3.008)).norm(), 1e-15);
  EXPECT_THROW(CalcBarrettTipTarget({0, 0, 0}, {0, 0, 2}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettFingerIk(-1, 0.0, {0, 0, 0.2}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettFingerIk(0, 0.0, {0, 0, NAN}), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
