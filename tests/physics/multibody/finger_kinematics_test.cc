// The three-joint finger of Mattar 2013 ("e_GRASP: Robotic Hand Modeling and Simulation
// Environment", Table 1 with the reference's 85 mm lengths and +-45 deg limits): forward
// kinematics against the standard DH product, both inverses against the forward map over
// 1,000 random configurations (acceptance K1 of issue 44), unreachable targets, and the two
// Jacobians (the tip frame's is eq. 23).

#include "physics/multibody/finger_kinematics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "physics/multibody/dh.h"

namespace twinblocks::multibody {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

FingerGeometry EGraspFinger() {
  FingerGeometry g;
  g.l1 = 0.010;
  g.l2 = 0.045;
  g.l3 = 0.030;
  g.lower = Eigen::Vector3d::Constant(-45.0 * kDeg);
  g.upper = Eigen::Vector3d::Constant(45.0 * kDeg);
  return g;
}

Eigen::Vector3d RandomInside(const FingerGeometry& g, std::mt19937& rng) {
  Eigen::Vector3d q;
  for (int k = 0; k < 3; ++k) {
    q[k] = std::uniform_real_distribution<double>(g.lower[k], g.upper[k])(rng);
  }
  return q;
}

TEST(FingerKinematics, ForwardIsTheStandardDhProduct) {
  const FingerGeometry g = EGraspFinger();
  std::mt19937 rng(1);
  for (int i = 0; i < 100; ++i) {
    const Eigen::Vector3d q = RandomInside(g, rng) * 3.0;  // beyond the limits too
    const Pose dh = StandardDhTransform(std::numbers::pi / 2, g.l1, q[0], 0.0) *
                    StandardDhTransform(0.0, g.l2, q[1], 0.0) *
                    StandardDhTransform(0.0, g.l3, q[2], 0.0);
    const Pose X = FingertipPose(g, q);
    EXPECT_LT((X.rotation - dh.rotation).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_LT((X.translation - dh.translation).cwiseAbs().maxCoeff(), 1e-16);  // ulps of 85 mm
  }
}

// K1: FK then IK gives back the angles, of the branch they lie on, to 1e-10 rad; the other
// branch, where the limits allow it, reaches the same fingertip.
TEST(FingerKinematics, BothInversesReturnTheAnglesOverAThousandConfigurations) {
  const FingerGeometry g = EGraspFinger();
  std::mt19937 rng(2);
  double worst_geometric = 0.0, worst_algebraic = 0.0, worst_other = 0.0;
  int other_branches = 0;
  for (int i = 0; i < 1000; ++i) {
    const Eigen::Vector3d q = RandomInside(g, rng);
    const int b = q[2] >= 0.0 ? 0 : 1;
    const Pose X = FingertipPose(g, q);
    const FingerIkResult geometric = FingerInverseGeometric(g, X.translation);
    ASSERT_TRUE(geometric.reachable) << q.transpose();
    ASSERT_TRUE(geometric.valid[b]) << q.transpose();
    worst_geometric = std::max(worst_geometric, (geometric.branch[b] - q).cwiseAbs().maxCoeff());
    if (geometric.valid[1 - b]) {
      ++other_branches;
      worst_other = std::max(
          worst_other,
          (FingertipPosition(g, geometric.branch[1 - b]) - X.translation).cwiseAbs().maxCoeff());
    }
    const FingerIkResult algebraic = FingerInverseAlgebraic(g, X);
    ASSERT_TRUE(algebraic.reachable && algebraic.valid[b]) << q.transpose();
    EXPECT_FALSE(algebraic.valid[1 - b]);  // a whole frame has one answer
    worst_algebraic = std::max(worst_algebraic, (algebraic.branch[b] - q).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst_geometric, 1e-10);
  EXPECT_LT(worst_algebraic, 1e-10);
  EXPECT_LT(worst_other, 1e-15);
  EXPECT_GT(other_branches, 100);  // within +-45 deg both elbows often fit
}

TEST(FingerKinematics, TheReferencePosesComeBack) {
  const FingerGeometry g = EGraspFinger();
  for (const Eigen::Vector3d& q : {Eigen::Vector3d(15 * kDeg, 30 * kDeg, 40 * kDeg),
                                   Eigen::Vector3d(0.0, 30 * kDeg, 60 * kDeg)}) {
    FingerGeometry wide = g;
    wide.upper[2] = 90 * kDeg;  // q_H's distal angle is beyond Table 1's range
    const FingerIkResult r = FingerInverseGeometric(wide, FingertipPosition(wide, q));
    ASSERT_TRUE(r.valid[0]);
    EXPECT_LT((r.branch[0] - q).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// Out of reach (beyond the stretched finger, inside its folded span, not finite), and frames
// the finger cannot take: reported, every angle finite.
TEST(FingerKinematics, UnreachableTargetsAreReportedNeverNaN) {
  const FingerGeometry g = EGraspFinger();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Eigen::Vector3d& p :
       {Eigen::Vector3d(g.l1 + g.l2 + g.l3 + 1e-6, 0.0, 0.0), Eigen::Vector3d(0.0, 0.0, 0.2),
        Eigen::Vector3d(g.l1 + 0.01, 0.0, 0.0), Eigen::Vector3d(nan, 0.0, 0.0),
        Eigen::Vector3d(std::numeric_limits<double>::infinity(), 0.0, 0.0)}) {
    SCOPED_TRACE(p.transpose());
    const FingerIkResult r = FingerInverseGeometric(g, p);
    EXPECT_FALSE(r.reachable);
    EXPECT_EQ(r.first_valid(), -1);
    for (const Eigen::Vector3d& q : r.branch) EXPECT_TRUE(q.allFinite());
  }
  // Reachable, but only with the abduction beyond its limit: no valid branch.
  const FingerIkResult sideways = FingerInverseGeometric(g, Eigen::Vector3d(0.0, 0.07, 0.0));
  EXPECT_TRUE(sideways.reachable);
  EXPECT_EQ(sideways.first_valid(), -1);
  // A frame turned about its own x axis, and one displaced along the approach axis.
  Pose X = FingertipPose(g, Eigen::Vector3d(0.1, 0.2, 0.3));
  Pose turned = X * Pose::RotX(0.1), moved = X;
  moved.translation += 0.01 * X.rotation.col(2);
  for (const Pose& bad : {turned, moved}) {
    const FingerIkResult r = FingerInverseAlgebraic(g, bad);
    EXPECT_FALSE(r.reachable);
    EXPECT_EQ(r.first_valid(), -1);
  }
}

TEST(FingerKinematics, JacobiansMatchDifferencesAndEq23) {
  const FingerGeometry g = EGraspFinger();
  std::mt19937 rng(3);
  for (int i = 0; i < 50; ++i) {
    const Eigen::Vector3d q = RandomInside(g, rng);
    const Eigen::Matrix3d J = FingertipJacobianInBase(g, q);
    for (int k = 0; k < 3; ++k) {
      const double h = 1e-6;
      Eigen::Vector3d plus = q, minus = q;
      plus[k] += h;
      minus[k] -= h;
      const Eigen::Vector3d column =
          (FingertipPosition(g, plus) - FingertipPosition(g, minus)) / (2.0 * h);
      // Central differences of a position of 0.085 m at h = 1e-6: round-off about 2e-11.
      EXPECT_LT((J.col(k) - column).cwiseAbs().maxCoeff(), 1e-10);
    }
    // Eq. 23: (0, 0, -psi), (l2 S3, l3 + l2 C3, 0), (0, l3, 0).
    const double psi = g.l3 * std::cos(q[1] + q[2]) + g.l2 * std::cos(q[1]) + g.l1;
    Eigen::Matrix3d eq23;
    eq23 << 0.0, g.l2 * std::sin(q[2]), 0.0,      //
        0.0, g.l3 + g.l2 * std::cos(q[2]), g.l3,  //
        -psi, 0.0, 0.0;
    EXPECT_LT((FingertipJacobianInTip(g, q) - eq23).cwiseAbs().maxCoeff(), 1e-16);
  }
}

}  // namespace
}  // namespace twinblocks::multibody
