#include "physics/grasp/barrett_hand.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace twinblocks::grasp {
namespace {

constexpr double kHandTestDeg = std::numbers::pi / 180.0;

// The modified DH transform Rx(alpha) Dx(a) Rz(theta) Dz(d) written out as one 4 x 4 matrix
// (Craig's eq. 3.6), independently of multibody::ModifiedDhTransform.
Eigen::Matrix4d CraigTransform(double alpha, double a, double theta, double d) {
  const double ct = std::cos(theta), st = std::sin(theta);
  const double ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix4d T;
  T << ct, -st, 0.0, a,                //
      st * ca, ct * ca, -sa, -sa * d,  //
      st * sa, ct * sa, ca, ca * d,    //
      0.0, 0.0, 0.0, 1.0;
  return T;
}

// The finger's chain from the rows of the reference table (r, j per finger).
std::array<Eigen::Matrix4d, 4> CraigChain(int finger, double t1, double t2, double t3) {
  const double r[3] = {-1.0, 1.0, 0.0};
  const double j[3] = {1.0, 1.0, -1.0};
  const double aw = 0.025, a1 = 0.050, a2 = 0.070, a3 = 0.050, dw = 0.084, d3 = 0.0095;
  const double phi2 = 2.46 * kHandTestDeg, phi3 = 50.0 * kHandTestDeg;
  std::array<Eigen::Matrix4d, 4> T;
  T[0] = CraigTransform(0.0, r[finger] * aw, r[finger] * t1 - j[finger] * 90.0 * kHandTestDeg, dw);
  T[1] = T[0] * CraigTransform(90.0 * kHandTestDeg, a1, t2 + phi2, 0.0);
  T[2] = T[1] * CraigTransform(0.0, a2, t3 + phi3, 0.0);
  T[3] = T[2] * CraigTransform(-90.0 * kHandTestDeg, a3, 0.0, d3);
  return T;
}

void ExpectPoseNear(const multibody::Pose& X, const Eigen::Matrix4d& T, double tol) {
  EXPECT_TRUE(X.rotation.isApprox(T.topLeftCorner<3, 3>(), tol)) << X.rotation;
  EXPECT_LT((X.translation - T.topRightCorner<3, 1>()).norm(), tol) << X.translation.transpose();
}

// Eq. 3 on the reference test vector q_M = (8750, 17500, 3500, 1575): Theta2 = q / 125 =
// 70, 140, 28 deg; Theta3 = q / 375 = 23.333.., 46.666.., 9.333.. deg; Theta1 = 2 q / 35 =
// 90 deg. Tolerance 1e-14 rad (a few roundings of angles ~ 2).
TEST(BarrettHandTest, CouplingOfTheTestVector) {
  const BarrettJointAngles angles = CalcBarrettJointAngles({8750.0, 17500.0, 3500.0, 1575.0});
  EXPECT_NEAR(angles.proximal[0], 70.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.proximal[1], 140.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.proximal[2], 28.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.distal[0], 70.0 / 3.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.distal[1], 140.0 / 3.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.distal[2], 28.0 / 3.0 * kHandTestDeg, 1e-14);
  EXPECT_NEAR(angles.spread, 90.0 * kHandTestDeg, 1e-14);
  // The inverse gives the counts back (to ~1e-11 counts).
  const Eigen::Vector4d q_M = CalcBarrettEncoderCounts(angles.spread, angles.proximal);
  EXPECT_LT((q_M - Eigen::Vector4d(8750.0, 17500.0, 3500.0, 1575.0)).norm(), 1e-9);
}

TEST(BarrettHandTest, CountsOutsideTheirRangesAreRefused) {
  using ::testing::HasSubstr;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NO_THROW(CalcBarrettJointAngles({0.0, 17500.0, 0.0, 3150.0}));
  try {
    CalcBarrettJointAngles({0.0, 17501.0, 0.0, 0.0});
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("q_M2 = 17501 is outside [0, 17500]"));
  }
  try {
    CalcBarrettJointAngles({0.0, 0.0, 0.0, 3151.0});
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("q_M4 = 3151 is outside [0, 3150]"));
  }
  EXPECT_THROW(CalcBarrettJointAngles({-1.0, 0.0, 0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(CalcBarrettJointAngles({0.0, 0.0, nan, 0.0}), std::invalid_argument);
  EXPECT_THROW(CalcBarrettEncoderCounts(0.0, {141.0 * kHandTestDeg, 0.0, 0.0}),
               std::invalid_argument);
  EXPECT_THROW(CalcBarrettEncoderCounts(181.0 * kHandTestDeg, {0.0, 0.0, 0.0}),
               std::invalid_argument);
  EXPECT_THROW(CalcBarrettEncoderCounts(-1.0 * kHandTestDeg, {0.0, 0.0, 0.0}),
               std::invalid_argument);
  EXPECT_THROW(CalcBarrettFingerFrames(3, 0.0, 0.0, 0.0), std::invalid_argument);
  EXPECT_THROW(CalcBarrettFingerFrames(0, nan, 0.0, 0.0), std::invalid_argument);
}

// Every frame and the tip-sphere centre against the chain composed above, for every finger at
// a few poses (the test vector's among them). Tolerance 1e-14 (m and rotation entries).
TEST(BarrettHandTest, ForwardKinematicsMatchesAnIndependentComposition) {
  const double poses[4][3] = {
      {0.0, 0.0, 0.0},
      {90.0 * kHandTestDeg, 70.0 * kHandTestDeg, 70.0 / 3.0 * kHandTestDeg},
      {35.0 * kHandTestDeg, 140.0 * kHandTestDeg, 140.0 / 3.0 * kHandTestDeg},
      {170.0 * kHandTestDeg, 12.0 * kHandTestDeg, 40.0 * kHandTestDeg}};
  for (int finger = 0; finger < 3; ++finger) {
    for (const auto& q : poses) {
      SCOPED_TRACE(::testing::Message() << "finger " << finger << " pose " << q[0] << " " << q[1]);
      const BarrettFingerFrames frames = CalcBarrettFingerFrames(finger, q[0], q[1], q[2]);
      const auto T = CraigChain(finger, q[0], q[1], q[2]);
      ExpectPoseNear(frames.X_WK, T[0], 1e-14);
      ExpectPoseNear(frames.X_WP, T[1], 1e-14);
      ExpectPoseNear(frames.X_WD, T[2], 1e-14);
      ExpectPoseNear(frames.X_WT, T[3], 1e-14);
      const Eigen::Vector4d s = T[2] * Eigen::Vector4d(0.050 - 0.010, 0.0, 0.0, 1.0);
      EXPECT_LT((frames.p_WS_W - s.head<3>()).norm(), 1e-14);
      const multibody::Pose base = CalcBarrettProximalBase(finger, q[0]);
      ExpectPoseNear(base, T[0] * CraigTransform(90.0 * kHandTestDeg, 0.050, 0.0, 0.0), 1e-14);
    }
  }
}

// F3 at rest, by hand: its knuckle looks along +y_W, so it moves in the plane x_W = 0; the
// proximal joint is at (0, A1, Dw), the proximal link points at Phi2 above +y_W and the distal
// one at Phi2 + Phi3, so the tip-sphere centre is (0, A1 + A2 cos Phi2 + 0.04 cos(Phi2 + Phi3),
// Dw + A2 sin Phi2 + 0.04 sin(Phi2 + Phi3)); the proximal axis z_2 is +x_W.
TEST(BarrettHandTest, ThirdFingerAtRestByHand) {
  const BarrettFingerFrames frames = CalcBarrettFingerFrames(2, 1.0, 0.0, 0.0);
  const double phi2 = 2.46 * kHandTestDeg, phi3 = 50.0 * kHandTestDeg;
  const Eigen::Vector3d expected(0.0,
                                 0.050 + 0.070 * std::cos(phi2) + 0.040 * std::cos(phi2 + phi3),
                                 0.084 + 0.070 * std::sin(phi2) + 0.040 * std::sin(phi2 + phi3));
  EXPECT_LT((frames.p_WS_W - expected).norm(), 1e-15);
  EXPECT_LT((frames.X_WP.translation - Eigen::Vector3d(0.0, 0.050, 0.084)).norm(), 1e-15);
  EXPECT_LT((frames.X_WP.rotation.col(2) - Eigen::Vector3d::UnitX()).norm(), 1e-15);
}

// F1 and F2 are mirror images in the palm's plane x_W = 0 at every pose: origins and link
// directions (x axes) mirror, joint axes (z) mirror up to sign; F3 stays in that plane.
TEST(BarrettHandTest, FirstAndSecondFingersMirrorEachOther) {
  const Eigen::Matrix3d M = Eigen::Vector3d(-1.0, 1.0, 1.0).asDiagonal();
  const double poses[3][3] = {{0.0, 0.0, 0.0},
                              {60.0 * kHandTestDeg, 45.0 * kHandTestDeg, 15.0 * kHandTestDeg},
                              {150.0 * kHandTestDeg, 130.0 * kHandTestDeg, 20.0 * kHandTestDeg}};
  for (const auto& q : poses) {
    const BarrettFingerFrames f1 = CalcBarrettFingerFrames(0, q[0], q[1], q[2]);
    const BarrettFingerFrames f2 = CalcBarrettFingerFrames(1, q[0], q[1], q[2]);
    const BarrettFingerFrames f3 = CalcBarrettFingerFrames(2, q[0], q[1], q[2]);
    const multibody::Pose* a[4] = {&f1.X_WK, &f1.X_WP, &f1.X_WD, &f1.X_WT};
    const multibody::Pose* b[4] = {&f2.X_WK, &f2.X_WP, &f2.X_WD, &f2.X_WT};
    const multibody::Pose* c[4] = {&f3.X_WK, &f3.X_WP, &f3.X_WD, &f3.X_WT};
    for (int i = 0; i < 4; ++i) {
      EXPECT_LT((a[i]->translation - M * b[i]->translation).norm(), 1e-15);
      EXPECT_LT((a[i]->rotation.col(0) - M * b[i]->rotation.col(0)).norm(), 1e-15);
      EXPECT_NEAR(std::abs(a[i]->rotation.col(2).dot(M * b[i]->rotation.col(2))), 1.0, 1e-15);
      EXPECT_NEAR(c[i]->translation.x(), 0.0, 1e-15);
    }
    EXPECT_LT((f1.p_WS_W - M * f2.p_WS_W).norm(), 1e-15);
    EXPECT_NEAR(f3.p_WS_W.x(), 0.0, 1e-15);
  }
}

}  // namespace
}  // namespace twinblocks::grasp
