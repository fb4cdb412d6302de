#include "physics/grasp/barrett_pregrasp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "physics/grasp/barrett_finger_ik.h"
#include "physics/grasp/barrett_hand.h"
#include "physics/grasp/object_surface.h"
#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

constexpr double kPregraspTestDeg = std::numbers::pi / 180.0;

void PrintBarrettPlan(ReferenceObject object, const BarrettPregrasp& plan) {
  const Eigen::Vector3d& p = plan.X_OW.translation;
  const Eigen::Vector3d z = plan.X_OW.rotation.col(2);
  std::printf(
      "[ barrett  ] %s: triangle (%d %d %d) F1/F2/F3 %d/%d/%d Q1 %.4f Q2 %.5f m L %.3f m "
      "W (%.4f %.4f %.4f) z_W (%.3f %.3f %.3f) spread %.2f deg Theta2 %.2f/%.2f/%.2f deg "
      "miss %.2f/%.2f/%.2f deg tip off %.1f/%.1f/%.1f mm\n",
      ReferenceObjectName(object), plan.triangle[0], plan.triangle[1], plan.triangle[2],
      plan.finger_vertex[0], plan.finger_vertex[1], plan.finger_vertex[2], plan.q1, plan.q2,
      plan.palm_distance, p.x(), p.y(), p.z(), z.x(), z.y(), z.z(), plan.spread / kPregraspTestDeg,
      plan.theta2[0] / kPregraspTestDeg, plan.theta2[1] / kPregraspTestDeg,
      plan.theta2[2] / kPregraspTestDeg, plan.miss_deg[0], plan.miss_deg[1], plan.miss_deg[2],
      plan.tip_distance[0] * 1e3, plan.tip_distance[1] * 1e3, plan.tip_distance[2] * 1e3);
}

class BarrettPregraspObjectTest : public ::testing::TestWithParam<ReferenceObject> {};

// Algorithm 2 on the three reference objects: a pregrasp is found; Algorithm 1's triangle has
// Q1 <= 0.3; every finger misses by at most 2 deg; the hand's frame is a rotation with z_W =
// -n and W on the TCP line at Dw + L from C_T; F3 is opposite the shortest edge; the counts
// are in range and give the angles back; the reported tips are the forward kinematics of the
// returned angles placed at X_OW; the palm's face clears the sampled object.
TEST_P(BarrettPregraspObjectTest, FindsAPregraspWithinTwoDegrees) {
  const ReferenceObject object = GetParam();
  const SurfaceSamples samples = SampleReferenceObject(object);
  const BarrettPregrasp plan =
      PlanBarrettPregrasp(samples.p_W, samples.n_W, ReferenceObjectCentre(object));
  ASSERT_TRUE(plan.found) << plan.message;
  PrintBarrettPlan(object, plan);
  EXPECT_LE(plan.q1, 0.3);
  const GraspTriangle chosen = ChooseGraspTriangle(samples.p_W, ReferenceObjectCentre(object));
  EXPECT_EQ(plan.triangle, chosen.indices);

  const Eigen::Matrix3d& R = plan.X_OW.rotation;
  EXPECT_TRUE((R.transpose() * R).isIdentity(1e-14));
  EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
  EXPECT_LT((R.col(2) + plan.n_O).norm(), 1e-14);
  EXPECT_GE(plan.n_O.z(), 0.0);
  EXPECT_LT(
      (plan.X_OW.translation - (plan.p_OT + (kBarrettDw + plan.palm_distance) * plan.n_O)).norm(),
      1e-14);
  EXPECT_NEAR(plan.palm_distance, plan.num_l_steps * 0.001, 1e-15);
  EXPECT_GE(plan.palm_clearance, 0.0);

  // F3's vertex is opposite the shortest edge.
  const Eigen::Vector3d a = samples.p_W.col(plan.finger_vertex[0]);
  const Eigen::Vector3d b = samples.p_W.col(plan.finger_vertex[1]);
  const Eigen::Vector3d c = samples.p_W.col(plan.finger_vertex[2]);
  EXPECT_LE((a - b).norm(), (b - c).norm() + 1e-15);
  EXPECT_LE((a - b).norm(), (a - c).norm() + 1e-15);

  const BarrettJointAngles angles = CalcBarrettJointAngles(plan.q_M);
  EXPECT_NEAR(angles.spread, plan.spread, 1e-14);
  for (int f = 0; f < 3; ++f) {
    SCOPED_TRACE(::testing::Message() << "F" << f + 1);
    EXPECT_LE(plan.miss_deg[f], 2.0);
    EXPECT_NEAR(angles.proximal[f], plan.theta2[f], 1e-14);
    EXPECT_NEAR(angles.distal[f], plan.theta3[f], 1e-14);
    const int column = plan.finger_vertex[f];
    EXPECT_LT(
        (plan.p_OG[f] - CalcBarrettTipTarget(samples.p_W.col(column), samples.n_W.col(column)))
            .norm(),
        1e-15);
    const Eigen::Vector3d tip = plan.X_OW.TransformPoint(
        CalcBarrettFingerFrames(f, plan.spread, plan.theta2[f], plan.theta3[f]).p_WS_W);
    EXPECT_LT((tip - plan.p_OS[f]).norm(), 1e-14);
    EXPECT_NEAR((tip - plan.p_OG[f]).norm(), plan.tip_distance[f], 1e-14);
    // The 2 deg accepted at the proximal joint, at ~0.1 m from it, allow a few mm sideways,
    // but the miss is blind along the ray from the joint, where the tip may pass beyond or
    // short of its target: measured 2.3 to 25.1 mm on these objects (the test prints them);
    // bound 30 mm.
    EXPECT_LT(plan.tip_distance[f], 0.030);
  }
}

INSTANTIATE_TEST_SUITE_P(ReferenceObjects, BarrettPregraspObjectTest,
                         ::testing::Values(ReferenceObject::kSphere, ReferenceObject::kCube,
                                           ReferenceObject::kCylinder),
                         [](const ::testing::TestParamInfo<ReferenceObject>& info) {
                           return std::string(ReferenceObjectName(info.param));
                         });

// Nothing found is reported with a reason, not thrown: on the sphere with L held at 0 the
// fingers cannot reach; three points of a right isosceles triangle have no Q1 <= 0.3.
TEST(BarrettPregraspTest, ReportsWhyNothingWasFound) {
  using ::testing::HasSubstr;
  const SurfaceSamples sphere = SampleReferenceObject(ReferenceObject::kSphere);
  const Eigen::Vector3d centre = ReferenceObjectCentre(ReferenceObject::kSphere);
  BarrettPregraspOptions options;
  options.l_max = 0.0;
  const BarrettPregrasp close = PlanBarrettPregrasp(sphere.p_W, sphere.n_W, centre, options);
  EXPECT_FALSE(close.found);
  EXPECT_THAT(close.message, HasSubstr("no palm distance L in [0, 0] m"));

  // Three points of a right isosceles triangle: Q1 = 0.5 > 0.3.
  Eigen::Matrix3Xd p(3, 3), n(3, 3);
  p << 0, 0.1, 0, 0, 0, 0.1, 0.05, 0.05, 0.05;
  n.setZero();
  n.row(2).setOnes();
  const BarrettPregrasp flat = PlanBarrettPregrasp(p, n, {0.03, 0.03, 0.0});
  EXPECT_FALSE(flat.found);
  EXPECT_THAT(flat.message, HasSubstr("no triangle of the 3 candidate points has Q1 <= 0.3"));
}

TEST(BarrettPregraspTest, BadInputIsRefused) {
  const SurfaceSamples cube = SampleReferenceObject(ReferenceObject::kCube);
  const Eigen::Vector3d centre = ReferenceObjectCentre(ReferenceObject::kCube);
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, cube.n_W.leftCols(10), centre), std::invalid_argument);
  Eigen::Matrix3Xd long_normals = cube.n_W;
  long_normals.col(3) *= 1.1;
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, long_normals, centre), std::invalid_argument);
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, cube.n_W, {NAN, 0, 0}), std::invalid_argument);
  BarrettPregraspOptions options;
  options.l_step = 0.0;
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options), std::invalid_argument);
  options = {};
  options.max_miss_deg = -1.0;
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options), std::invalid_argument);
  options = {};
  options.l_max = 1e4;
  EXPECT_THROW(PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
