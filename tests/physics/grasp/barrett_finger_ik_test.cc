#include "physics/grasp/barrett_finger_ik.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "physics/grasp/barrett_hand.h"

namespace twinblocks::grasp {
namespace {

constexpr double kIkTestDeg = std::numbers::pi / 180.0;

// Round trip of the exact planar IK: the tip-sphere centre of the forward kinematics at any
// (Theta2, Theta3) on the branch Theta3 + Phi3 in (0, 180) deg, coupled or not, is reached
// again with the same angles (1e-9 rad), in the plane, with the coupling error of the angles.
TEST(BarrettFingerIkTest, ExactIkInvertsTheForwardKinematics) {
  for (int finger = 0; finger < 3; ++finger) {
    for (const double spread : {0.0, 37.0 * kIkTestDeg, 90.0 * kIkTestDeg, 180.0 * kIkTestDeg}) {
      for (const double theta2_deg : {0.0, 0.3, 17.0, 55.5, 90.0, 121.25, 140.0}) {
        for (const double theta3_deg : {-40.0, 0.0, theta2_deg / 3.0, 46.0, 100.0, 125.0}) {
          SCOPED_TRACE(::testing::Message()
                       << "finger " << finger << " spread " << spread << " theta2 " << theta2_deg
                       << " theta3 " << theta3_deg);
          const double theta2 = theta2_deg * kIkTestDeg;
          const double theta3 = theta3_deg * kIkTestDeg;
          const Eigen::Vector3d target =
              CalcBarrettFingerFrames(finger, spread, theta2, theta3).p_WS_W;
          const BarrettFingerIk ik = SolveBarrettFingerIk(finger, spread, target);
          EXPECT_TRUE(ik.reachable);
          EXPECT_EQ(ik.reach_excess, 0.0);
          EXPECT_NEAR(ik.theta2, theta2, 1e-9);
          EXPECT_NEAR(ik.theta3, theta3, 1e-9);
          EXPECT_NEAR(ik.coupling_error_deg, std::abs(theta3_deg - theta2_deg / 3.0), 1e-9);
          EXPECT_LT(ik.plane_distance, 1e-12);
          EXPECT_LT((ik.p_WS_W - target).norm(), 1e-12);
        }
      }
    }
  }
}

// A target moved off the finger's plane by h along the proximal axis z_2: the same angles, the
// distance h, and the tip at the target's projection (1e-12).
TEST(BarrettFingerIkTest, OutOfPlaneTargetIsProjected) {
  const double spread = 30.0 * kIkTestDeg, theta2 = 60.0 * kIkTestDeg, h = 0.01;
  const BarrettFingerFrames frames = CalcBarrettFingerFrames(1, spread, theta2, theta2 / 3.0);
  const Eigen::Vector3d axis = frames.X_WP.rotation.col(2);
  const BarrettFingerIk ik = SolveBarrettFingerIk(1, spread, frames.p_WS_W + h * axis);
  EXPECT_NEAR(ik.theta2, theta2, 1e-12);
  EXPECT_NEAR(ik.theta3, theta2 / 3.0, 1e-12);
  EXPECT_NEAR(ik.plane_distance, h, 1e-12);
  EXPECT_LT((ik.p_WS_W - frames.p_WS_W).norm(), 1e-12);
  EXPECT_FALSE(BarrettFingerMeets(ik));
  BarrettFingerTolerance loose;
  loose.max_plane_distance = 0.02;
  EXPECT_TRUE(BarrettFingerMeets(ik, loose));
}

// The case the angular-miss reading accepted: a target 25 mm beyond a coupled tip along the ray
// from the proximal joint has no angular miss, but the exact IK needs the distal joint far from
// Theta2 / 3 (measured 62.1 deg), and the coupled finger stays about 25 mm away.
TEST(BarrettFingerIkTest, TargetFartherAlongTheRayIsNotMet) {
  const double theta2 = 120.0 * kIkTestDeg;
  const BarrettFingerFrames frames = CalcBarrettFingerFrames(2, 0.0, theta2, theta2 / 3.0);
  const Eigen::Vector3d ray = frames.p_WS_W - frames.X_WP.translation;
  const Eigen::Vector3d target = frames.p_WS_W + 0.025 * ray.normalized();
  const BarrettFingerIk ik = SolveBarrettFingerIk(2, 0.0, target);
  EXPECT_TRUE(ik.reachable);
  EXPECT_LT((ik.p_WS_W - target).norm(), 1e-12);
  std::printf("[ barrett  ] 25 mm along the ray: coupling error %.2f deg\n", ik.coupling_error_deg);
  EXPECT_GT(ik.coupling_error_deg, 20.0);
  EXPECT_FALSE(BarrettFingerMeets(ik));
  const BarrettCoupledFinger coupled = SolveBarrettCoupledFinger(2, 0.0, target);
  EXPECT_GT(coupled.distance, 0.02);
}

// Out of the annulus |A2 - l| <= rho <= A2 + l (l = A3 - R_f = 0.04 m): not reachable, with the
// excess; Theta2 outside [0, 140] deg is not met either.
TEST(BarrettFingerIkTest, ReachAndLimits) {
  const multibody::Pose X_WB = CalcBarrettProximalBase(2, 0.0);
  const Eigen::Vector3d far = X_WB.TransformPoint({0.0, 0.125, 0.0});
  const BarrettFingerIk out = SolveBarrettFingerIk(2, 0.0, far);
  EXPECT_FALSE(out.reachable);
  EXPECT_NEAR(out.reach_excess, 0.015, 1e-12);
  EXPECT_FALSE(BarrettFingerMeets(out));
  const BarrettFingerIk inside = SolveBarrettFingerIk(2, 0.0, X_WB.translation);
  EXPECT_FALSE(inside.reachable);
  EXPECT_NEAR(inside.reach_excess, 0.03, 1e-12);

  // Theta2 = -10 deg (behind the open finger) with the coupled distal angle.
  const double theta2 = -10.0 * kIkTestDeg;
  const BarrettFingerIk behind =
      SolveBarrettFingerIk(0, 0.3, CalcBarrettFingerFrames(0, 0.3, theta2, theta2 / 3.0).p_WS_W);
  EXPECT_NEAR(behind.theta2, theta2, 1e-9);
  EXPECT_LT(behind.coupling_error_deg, 1e-9);
  EXPECT_FALSE(BarrettFingerMeets(behind));
}

// The coupled finger: points of its curve are reached again (Theta2c within 1e-12 rad,
// distance below 1e-12 m); a target behind the palm stops it at Theta2c = 0.
TEST(BarrettFingerIkTest, CoupledFingerReachesItsCurve) {
  for (int finger = 0; finger < 3; ++finger) {
    for (const double spread : {0.0, 37.0 * kIkTestDeg, 180.0 * kIkTestDeg}) {
      for (const double theta2_deg : {0.0, 0.3, 17.0, 55.5, 90.0, 121.25, 139.9, 140.0}) {
        SCOPED_TRACE(::testing::Message()
                     << "finger " << finger << " spread " << spread << " theta2 " << theta2_deg);
        const double theta2 = theta2_deg * kIkTestDeg;
        const Eigen::Vector3d target =
            CalcBarrettFingerFrames(finger, spread, theta2, theta2 / 3.0).p_WS_W;
        const BarrettCoupledFinger coupled = SolveBarrettCoupledFinger(finger, spread, target);
        EXPECT_NEAR(coupled.theta2, theta2, 1e-12);
        EXPECT_NEAR(coupled.theta3, coupled.theta2 / 3.0, 1e-15);
        EXPECT_LT(coupled.distance, 1e-12);
        EXPECT_LT((coupled.p_WS_W - target).norm(), 1e-12);
      }
    }
  }
  EXPECT_NEAR(SolveBarrettCoupledFinger(2, 0.0, {0.0, 0.2, -0.1}).theta2, 0.0, 1e-12);
}

TEST(BarrettFingerIkTest, TipTargetAndBadInput) {
  const Eigen::Vector3d target = CalcBarrettTipTarget({1.0, 2.0, 3.0}, {0.0, 0.6, 0.8});
  EXPECT_LT((target - Eigen::Vector3d(1.0, 2.006, 3.008)).norm(), 1e-15);
  EXPECT_THROW(CalcBarrettTipTarget({0, 0, 0}, {0, 0, 2}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettFingerIk(-1, 0.0, {0, 0, 0.2}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettFingerIk(0, 0.0, {0, 0, NAN}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettCoupledFinger(3, 0.0, {0, 0, 0.2}), std::invalid_argument);
  EXPECT_THROW(SolveBarrettCoupledFinger(0, NAN, {0, 0, 0.2}), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
