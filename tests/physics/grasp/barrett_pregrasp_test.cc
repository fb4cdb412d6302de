#include "physics/grasp/barrett_pregrasp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>

#include "physics/grasp/barrett_finger_ik.h"
#include "physics/grasp/barrett_hand.h"
#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_quality.h"
#include "physics/grasp/object_surface.h"
#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

constexpr double kPregraspTestDeg = std::numbers::pi / 180.0;

void PrintBarrettPlan(ReferenceObject object, const BarrettPregrasp& plan) {
  const Eigen::Vector3d& p = plan.X_OW.translation;
  const Eigen::Vector3d z = plan.X_OW.rotation.col(2);
  const double d = 1.0 / kPregraspTestDeg;
  std::printf(
      "[ barrett  ] %s: triangle (%d %d %d) F1/F2/F3 %d/%d/%d Q1 %.4f Q2 %.5f m L %.3f m "
      "W (%.4f %.4f %.4f) z_W (%.3f %.3f %.3f) spread %.2f deg Theta2 %.2f/%.2f/%.2f deg "
      "Theta3 %.2f/%.2f/%.2f deg coupling error %.2f/%.2f/%.2f deg off plane %.2g/%.2g/%.2g m "
      "Theta2c %.2f/%.2f/%.2f deg coupled tip off %.2f/%.2f/%.2f mm\n",
      ReferenceObjectName(object), plan.triangle[0], plan.triangle[1], plan.triangle[2],
      plan.finger_vertex[0], plan.finger_vertex[1], plan.finger_vertex[2], plan.q1, plan.q2,
      plan.palm_distance, p.x(), p.y(), p.z(), z.x(), z.y(), z.z(), plan.spread * d,
      plan.theta2[0] * d, plan.theta2[1] * d, plan.theta2[2] * d, plan.theta3[0] * d,
      plan.theta3[1] * d, plan.theta3[2] * d, plan.coupling_error_deg[0],
      plan.coupling_error_deg[1], plan.coupling_error_deg[2], plan.plane_distance[0],
      plan.plane_distance[1], plan.plane_distance[2], plan.coupled_theta2[0] * d,
      plan.coupled_theta2[1] * d, plan.coupled_theta2[2] * d, plan.coupled_tip_distance[0] * 1e3,
      plan.coupled_tip_distance[1] * 1e3, plan.coupled_tip_distance[2] * 1e3);
}

// The checks every plan's hand and fingers pass, found or nearest miss: the hand's frame is a
// rotation with z_W = -n and W on the TCP line at Dw + L from C_T; F3 is opposite the shortest
// edge; the counts are in range and give the spread and the coupled angles back; the targets are
// vertex + R_f n; the reported tips are the forward kinematics of the returned angles at X_OW,
// the exact IK's on the target's projection onto the finger's plane.
void CheckBarrettPlan(const Eigen::Matrix3Xd& p, const Eigen::Matrix3Xd& n,
                      const BarrettPregrasp& plan) {
  const Eigen::Matrix3d& R = plan.X_OW.rotation;
  EXPECT_TRUE((R.transpose() * R).isIdentity(1e-14));
  EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
  EXPECT_LT((R.col(2) + plan.n_O).norm(), 1e-14);
  EXPECT_GE(plan.n_O.z(), 0.0);
  EXPECT_LT(
      (plan.X_OW.translation - (plan.p_OT + (kBarrettDw + plan.palm_distance) * plan.n_O)).norm(),
      1e-14);
  EXPECT_NEAR(plan.palm_distance, plan.num_l_steps * 0.001, 1e-15);

  const Eigen::Vector3d a = p.col(plan.finger_vertex[0]);
  const Eigen::Vector3d b = p.col(plan.finger_vertex[1]);
  const Eigen::Vector3d c = p.col(plan.finger_vertex[2]);
  EXPECT_LE((a - b).norm(), (b - c).norm() + 1e-15);
  EXPECT_LE((a - b).norm(), (a - c).norm() + 1e-15);

  const BarrettJointAngles angles = CalcBarrettJointAngles(plan.q_M);
  EXPECT_NEAR(angles.spread, plan.spread, 1e-14);
  for (int f = 0; f < 3; ++f) {
    SCOPED_TRACE(::testing::Message() << "F" << f + 1);
    const int column = plan.finger_vertex[f];
    EXPECT_LT((plan.p_OG[f] - CalcBarrettTipTarget(p.col(column), n.col(column))).norm(), 1e-15);
    const Eigen::Vector3d exact = plan.X_OW.TransformPoint(
        CalcBarrettFingerFrames(f, plan.spread, plan.theta2[f], plan.theta3[f]).p_WS_W);
    EXPECT_LT((exact - plan.p_OS[f]).norm(), 1e-14);
    // On the projection: the offset from the target is the plane distance (1e-9 m).
    EXPECT_NEAR((exact - plan.p_OG[f]).norm(), plan.plane_distance[f], 1e-9);
    EXPECT_NEAR(plan.coupling_error_deg[f],
                std::abs(plan.theta3[f] - plan.theta2[f] / 3.0) / kPregraspTestDeg, 1e-12);
    EXPECT_NEAR(angles.proximal[f], plan.coupled_theta2[f], 1e-14);
    EXPECT_NEAR(angles.distal[f], plan.coupled_theta2[f] / 3.0, 1e-14);
    const Eigen::Vector3d tip =
        plan.X_OW.TransformPoint(CalcBarrettFingerFrames(f, plan.spread, plan.coupled_theta2[f],
                                                         plan.coupled_theta2[f] / 3.0)
                                     .p_WS_W);
    EXPECT_LT((tip - plan.coupled_p_OS[f]).norm(), 1e-14);
    EXPECT_NEAR((tip - plan.p_OG[f]).norm(), plan.coupled_tip_distance[f], 1e-14);
  }
}

// With the coupling tolerance widened to 5 deg the sphere's nearest miss (4.71 deg) becomes a
// pregrasp: found at the first L where all three fingers are within 5 deg, with the same
// checks; the plan's search and bookkeeping work once a common L exists.
TEST(BarrettPregraspTest, FindsThePregraspWithinAWiderTolerance) {
  const SurfaceSamples sphere = SampleReferenceObject(ReferenceObject::kSphere);
  BarrettPregraspOptions options;
  options.max_coupling_error_deg = 5.0;
  const BarrettPregrasp plan = PlanBarrettPregrasp(
      sphere.p_W, sphere.n_W, ReferenceObjectCentre(ReferenceObject::kSphere), options);
  ASSERT_TRUE(plan.found) << plan.message;
  EXPECT_TRUE(plan.message.empty());
  PrintBarrettPlan(ReferenceObject::kSphere, plan);
  CheckBarrettPlan(sphere.p_W, sphere.n_W, plan);
  EXPECT_GE(plan.palm_clearance, 0.0);
  for (int f = 0; f < 3; ++f) {
    EXPECT_LE(plan.coupling_error_deg[f], 5.0);
    EXPECT_LT(plan.plane_distance[f], 1e-9);
  }
  // The first such L: one step less and some finger is beyond 5 deg.
  options.l_max = plan.palm_distance - 0.0005;
  EXPECT_FALSE(PlanBarrettPregrasp(sphere.p_W, sphere.n_W,
                                   ReferenceObjectCentre(ReferenceObject::kSphere), options)
                   .found);
}

class BarrettPregraspObjectTest : public ::testing::TestWithParam<ReferenceObject> {};

// Algorithm 2 on the three reference objects with Algorithm 1's triangle: under the exact
// reading of "within 2 deg" no palm distance serves all three fingers at once. Each finger's
// coupling error falls through 0 at its own L, about 2 deg per mm, and the three Ls differ by
// more than the 2 deg allow (sphere: F1, F2 near 0.088 m, F3 near 0.092 m); on the cube the
// roll and spread cannot put all three targets in their planes either (2 to 3.3 mm off). The
// nearest miss is reported (the test prints it). Measured, worst coupling error and coupled tip
// distances: sphere 4.71 deg at L = 0.089 m, tips 1.7 to 2.2 mm; cube 9.62 deg at 0.091 m, tips
// 2.8 to 5.1 mm; cylinder 16.50 deg at 0.091 m, tips 6.7 to 8.1 mm.
TEST_P(BarrettPregraspObjectTest, ReportsTheNearestMiss) {
  const ReferenceObject object = GetParam();
  const SurfaceSamples samples = SampleReferenceObject(object);
  const BarrettPregrasp plan =
      PlanBarrettPregrasp(samples.p_W, samples.n_W, ReferenceObjectCentre(object));
  PrintBarrettPlan(object, plan);
  EXPECT_FALSE(plan.found);
  EXPECT_TRUE(plan.has_hand);
  EXPECT_THAT(plan.message, ::testing::HasSubstr("the least worst coupling error is "));
  EXPECT_LE(plan.q1, 0.3);
  const GraspTriangle chosen = ChooseGraspTriangle(samples.p_W, ReferenceObjectCentre(object));
  EXPECT_EQ(plan.triangle, chosen.indices);
  CheckBarrettPlan(samples.p_W, samples.n_W, plan);
  const double worst =
      *std::max_element(plan.coupling_error_deg.begin(), plan.coupling_error_deg.end());
  EXPECT_GT(worst, 2.0);
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
  EXPECT_FALSE(close.has_hand);
  EXPECT_THAT(close.message, HasSubstr("no palm distance L in [0, 0] m lets every finger meet "
                                       "its target"));

  // Three points of a right isosceles triangle: Q1 = 0.5 > 0.3.
  Eigen::Matrix3Xd p(3, 3), n(3, 3);
  p << 0, 0.1, 0, 0, 0, 0.1, 0.05, 0.05, 0.05;
  n.setZero();
  n.row(2).setOnes();
  const BarrettPregrasp flat = PlanBarrettPregrasp(p, n, {0.03, 0.03, 0.0});
  EXPECT_FALSE(flat.found);
  EXPECT_THAT(flat.message, HasSubstr("no triangle of the 3 candidate points has Q1 <= 0.3"));
}

// The message of the std::invalid_argument `call` throws ("" if none).
template <typename Call>
std::string PregraspError(Call call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Each refusal is one line naming the point and what is wrong.
// The paper's Algorithm 1 chooses the cube's and the cylinder's triangles without looking at the
// normals, and those are not force closure with the fingertips' mu = 0.5; with closure_mu the
// planner chooses, by least Q2, among the triangles that are (at their vertices and at the
// contacts the coupled fingers reach), and still places the hand.
TEST(BarrettPregraspTest, ClosureMuChoosesAForceClosureTriangle) {
  for (const ReferenceObject object : {ReferenceObject::kCube, ReferenceObject::kCylinder}) {
    const SurfaceSamples s = SampleReferenceObject(object);
    const Eigen::Vector3d c = ReferenceObjectCentre(object);
    auto closure = [&](const BarrettPregrasp& plan) {
      Eigen::Matrix3Xd p(3, 3), n(3, 3);
      for (int k = 0; k < 3; ++k) {
        p.col(k) = s.p_W.col(plan.triangle[k]);
        n.col(k) = -s.n_W.col(plan.triangle[k]);
      }
      return IsForceClosure(p, n, c, ContactModel::kHardFinger, FrictionCone{0.5, 0.0, 8});
    };
    const BarrettPregrasp published = PlanBarrettPregrasp(s.p_W, s.n_W, c);
    EXPECT_FALSE(closure(published)) << ReferenceObjectName(object);
    BarrettPregraspOptions options;
    options.closure_mu = 0.5;
    const BarrettPregrasp plan = PlanBarrettPregrasp(s.p_W, s.n_W, c, options);
    ASSERT_TRUE(plan.has_hand) << ReferenceObjectName(object) << ": " << plan.message;
    EXPECT_TRUE(closure(plan)) << ReferenceObjectName(object);
    EXPECT_LE(plan.q1, 0.3);
    EXPECT_GE(plan.q2, published.q2);  // the least Q2 of fewer triangles
  }
  BarrettPregraspOptions bad;
  bad.closure_mu = -0.5;
  const SurfaceSamples s = SampleReferenceObject(ReferenceObject::kCube);
  EXPECT_THROW(
      PlanBarrettPregrasp(s.p_W, s.n_W, ReferenceObjectCentre(ReferenceObject::kCube), bad),
      std::invalid_argument);
}

TEST(BarrettPregraspTest, BadInputIsRefused) {
  using ::testing::HasSubstr;
  const SurfaceSamples cube = SampleReferenceObject(ReferenceObject::kCube);
  const Eigen::Vector3d centre = ReferenceObjectCentre(ReferenceObject::kCube);
  EXPECT_EQ(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W.leftCols(10), centre); }),
            "grasp: pregrasp has 245 candidate points but 10 normals; expected one normal per "
            "point");
  EXPECT_EQ(PregraspError(
                [&] { PlanBarrettPregrasp(cube.p_W.leftCols(2), cube.n_W.leftCols(2), centre); }),
            "grasp: pregrasp has 2 candidate points; expected 3 to 300");
  Eigen::Matrix3Xd bad = cube.p_W;
  bad(1, 7) = NAN;
  EXPECT_EQ(
      PregraspError([&] { PlanBarrettPregrasp(bad, cube.n_W, centre); }),
      "grasp: pregrasp candidate point 7 " + detail::VectorText(bad.col(7)) + " is not finite");
  bad = cube.n_W;
  bad(0, 5) = INFINITY;
  EXPECT_EQ(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, bad, centre); }),
            "grasp: pregrasp candidate point 5: normal " + detail::VectorText(bad.col(5)) +
                " is not finite");
  bad = cube.n_W;
  bad.col(3) *= 1.1;
  EXPECT_EQ(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, bad, centre); }),
            "grasp: pregrasp candidate point 3: normal " + detail::VectorText(bad.col(3)) +
                " has length 1.1; expected a unit vector (to 1e-06)");
  EXPECT_EQ(PregraspError([&] {
              PlanBarrettPregrasp(cube.p_W, cube.n_W, {NAN, 0, 0});
            }),
            "grasp: pregrasp object centre (nan, 0, 0) is not finite");
  BarrettPregraspOptions options;
  options.q1_max = 3.0;
  EXPECT_EQ(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options); }),
            "grasp: pregrasp option q1_max 3; expected a value in [0, 2]");
  options = {};
  options.l_step = 0.0;
  EXPECT_THAT(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options); }),
              HasSubstr("l_step 0, l_max 0.3; expected finite values"));
  options = {};
  options.max_coupling_error_deg = -1.0;
  EXPECT_THAT(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options); }),
              HasSubstr("max_coupling_error_deg -1,"));
  options = {};
  options.max_plane_distance = 0.0;
  EXPECT_THAT(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options); }),
              HasSubstr("max_plane_distance 0,"));
  options = {};
  options.l_max = 1e4;
  EXPECT_THAT(PregraspError([&] { PlanBarrettPregrasp(cube.p_W, cube.n_W, centre, options); }),
              HasSubstr("l_max / l_step <= 1e6"));
}

// A contact not on the object is a one-line error naming it; the reference samplings pass.
TEST(BarrettPregraspTest, ContactsNotOnTheObjectAreNamed) {
  for (const ReferenceObject object :
       {ReferenceObject::kSphere, ReferenceObject::kCube, ReferenceObject::kCylinder}) {
    SCOPED_TRACE(ReferenceObjectName(object));
    SurfaceSamples s = SampleReferenceObject(object);
    EXPECT_NO_THROW(CheckOnReferenceObject(object, s.p_W, 1e-12));
    s.p_W.col(11) += 0.002 * s.n_W.col(11);
    const std::string message = PregraspError([&] { CheckOnReferenceObject(object, s.p_W, 1e-3); });
    EXPECT_THAT(message, ::testing::StartsWith("grasp: contact 11 at "));
    EXPECT_THAT(message,
                ::testing::HasSubstr(
                    std::string(" m from the ") +
                    (object == ReferenceObject::kCube ? "box" : ReferenceObjectName(object)) +
                    "'s surface; expected at most 0.001 m"));
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
  EXPECT_EQ(PregraspError([] { ParseReferenceObject("torus"); }),
            "grasp: reference object 'torus'; expected 'sphere', 'cube' or 'cylinder'");
}

}  // namespace
}  // namespace twinblocks::grasp
