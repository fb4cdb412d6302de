// The anchored stick-slip friction of Zaidi et al. 2020 (eq. 9-10): the reference's test, a
// tip pressed with f_n = 10 N and dragged at 1 mm/s for 1 s (k_t = 1e4 N/m, c_t = 1 N s/m,
// mu = 0.5): the friction grows linearly with the tangential spring up to mu f_n (F3 of
// issue 45), then slides at mu f_n with the anchor trailing by mu f_n / k_t; an open contact
// releases the anchor.

#include "physics/contact/anchored_friction.h"

#include <gtest/gtest.h>

namespace twinblocks::contact {
namespace {

TEST(AnchoredFrictionTest, StickGrowsLinearlyThenSlidesAtMuFn) {
  const AnchoredFrictionParams params{1e4, 1.0, 0.5};
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ(), v(1e-3, 0, 0);
  const double f_n = 10.0, dt = 1e-4;
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();
  bool slid = false;
  for (int k = 0; k <= 10000; ++k) {
    const double t = k * dt;
    const Eigen::Vector3d p(1e-3 * t, 0, 0);
    const AnchoredFriction f = CalcAnchoredFriction(params, p, v, n, f_n, anchor);
    const double stick = params.stiffness * p.x() + params.damping * v.x();  // k_t x + c_t x'
    if (stick <= params.mu * f_n) {
      ASSERT_FALSE(f.sliding) << t;
      EXPECT_NEAR(f.force.x(), -stick, 1e-12) << t;  // linear in the displacement
    } else {
      ASSERT_TRUE(f.sliding) << t;
      EXPECT_NEAR(f.force.x(), -params.mu * f_n, 1e-12) << t;
      slid = true;
    }
    EXPECT_NEAR(f.force.y(), 0.0, 1e-15);
    EXPECT_NEAR(f.force.z(), 0.0, 1e-15);
    anchor = UpdateAnchor(params, p, v, n, f_n, anchor);
  }
  EXPECT_TRUE(slid);
  // After sliding, the anchor trails the tip by mu f_n / k_t.
  EXPECT_NEAR(1e-3 - anchor.x(), params.mu * f_n / params.stiffness, 1e-15);
}

TEST(AnchoredFrictionTest, AnOpenContactHasNoForceAndReleasesItsAnchor) {
  const AnchoredFrictionParams params;
  const Eigen::Vector3d p(0.01, 0.02, 0), n = Eigen::Vector3d::UnitZ();
  const AnchoredFriction f =
      CalcAnchoredFriction(params, p, Eigen::Vector3d(1, 0, 0), n, 0.0, Eigen::Vector3d::Zero());
  EXPECT_EQ(f.force, Eigen::Vector3d::Zero());
  EXPECT_EQ(UpdateAnchor(params, p, Eigen::Vector3d::Zero(), n, 0.0, Eigen::Vector3d::Zero()), p);
}

TEST(AnchoredFrictionTest, OnlyTheTangentialStretchCounts) {
  // An anchor below the surface along the normal holds nothing tangentially.
  const AnchoredFrictionParams params;
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
  const AnchoredFriction f =
      CalcAnchoredFriction(params, Eigen::Vector3d(0, 0, 0.001), Eigen::Vector3d::Zero(), n, 5.0,
                           Eigen::Vector3d::Zero());
  EXPECT_EQ(f.force, Eigen::Vector3d::Zero());
  EXPECT_FALSE(f.sliding);
}

}  // namespace
}  // namespace twinblocks::contact
