// F3 of issue 45 at the contact law: a foam node against an aluminium fingertip, by the Hertz
// law of Zaidi et al. 2020 (eq. 4-8) with K and C from the materials, on a flat face and on
// curved ones; the reference's stick-then-slip drag (eq. 9-10); the force's slopes against
// differences.

#include "physics/deformable/node_contact.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "physics/contact/contact_law.h"

namespace twinblocks::deformable {
namespace {

// The reference's materials: foam E = 4.928 MPa, nu = 0.39; aluminium tip E = 70 GPa,
// nu = 0.33, gamma = 50 N s/m^2; tip radius R_f = 0.010 m.
constexpr double kFoamE = 4.928e6, kFoamNu = 0.39;
constexpr double kTipE = 70e9, kTipNu = 0.33, kTipGamma = 50.0, kTipRadius = 0.010;

// eq. 6-8 written out here, independently of contact::HertzStiffness.
double ClosedFormK(double radius) {
  const double psi = 1.0 / ((1.0 - kFoamNu * kFoamNu) / kFoamE + (1.0 - kTipNu * kTipNu) / kTipE);
  return 2.0 * psi * std::sqrt(radius);
}

NodeContactLaw TipLaw(double radius) {
  NodeContactLaw law;
  law.stiffness = contact::HertzStiffness(kTipE, kTipNu, kFoamE, kFoamNu, radius);
  law.damping = contact::HertzDamping(kTipGamma, radius);
  return law;
}

// A tip sphere pressed onto a node of a flat foam face (R = R_f): the force against the
// penetration and its rate is eq. 4 with eq. 6-8's K and C, to 1e-9.
TEST(NodeContactTest, HertzOnAFlatFaceFollowsEquationsFourToEight) {
  const NodeContactLaw law = TipLaw(kTipRadius);
  EXPECT_NEAR(law.stiffness / ClosedFormK(kTipRadius), 1.0, 1e-12);
  EXPECT_NEAR(law.damping, 4.0 * std::numbers::pi * kTipRadius * kTipGamma, 1e-12);
  const contact::Shape tip = contact::Shape::Sphere(kTipRadius);
  const Eigen::Vector3d node(0.01, -0.02, 0.03);
  for (const double delta : {1e-6, 1e-5, 1e-4, 5e-4, 1e-3, 3e-3}) {
    for (const double rate : {0.0, 1e-3, -2e-3, 0.05}) {
      SolidMotion solid;
      solid.X_WS.translation = node + Eigen::Vector3d(0.0, 0.0, kTipRadius - delta);
      solid.v_WSo = Eigen::Vector3d(0.0, 0.0, -rate);  // descending at delta'
      const NodeContact c =
          CalcNodeContact(law, tip, solid, node, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
      const double expected =
          std::max(0.0, ClosedFormK(kTipRadius) * std::pow(delta, 1.5) + law.damping * rate);
      if (expected == 0.0) {
        EXPECT_FALSE(c.touching) << delta << " " << rate;
        continue;
      }
      ASSERT_TRUE(c.touching);
      EXPECT_NEAR(c.depth, delta, 1e-15);
      EXPECT_NEAR(c.normal_force / expected, 1.0, 1e-9) << "delta " << delta << " rate " << rate;
      EXPECT_NEAR(c.normal.z(), -1.0, 1e-15);  // pushed down, out of the tip
      EXPECT_NEAR((c.force - c.normal_force * c.normal).norm(), 0.0, 1e-12);  // no slip
    }
  }
}

// R = (1/R_f + 1/R_o)^-1 on the sphere (R_o = 0.040) and the cylinder side (0.035): only K
// changes, and the law follows it.
TEST(NodeContactTest, CurvedSurfacesTakeTheEffectiveRadius) {
  for (const double object_radius : {0.040, 0.035}) {
    const double r = 1.0 / (1.0 / kTipRadius + 1.0 / object_radius);
    const NodeContactLaw law = TipLaw(r);
    SolidMotion solid;
    const double delta = 2e-4;
    solid.X_WS.translation = Eigen::Vector3d(kTipRadius - delta, 0.0, 0.0);
    const NodeContact c =
        CalcNodeContact(law, contact::Shape::Sphere(kTipRadius), solid, Eigen::Vector3d::Zero(),
                        Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    EXPECT_NEAR(c.normal_force / (ClosedFormK(r) * std::pow(delta, 1.5)), 1.0, 1e-9);
  }
}

// The reference's drag: f_n = 10 N held, the tip dragged at 1 mm/s for 1 s over a node that
// stays put (the tip's pad flat, a 20 mm box with the tip's law, so that the depth, and with it
// f_n, holds as it slides). The friction grows as k_t x + c_t x' up to mu f_n = 5 N (at 0.4999 s),
// then slides at mu f_n with the anchor trailing by mu f_n / k_t.
TEST(NodeContactTest, StickThenSlipUnderATangentialDrag) {
  NodeContactLaw law = TipLaw(kTipRadius);
  law.damping = 0.0;  // f_n exactly 10 N while the depth holds
  const double delta = std::pow(10.0 / law.stiffness, 1.0 / 1.5);
  const double half = 0.01;
  const contact::Shape tip = contact::Shape::Box(Eigen::Vector3d::Constant(2.0 * half));
  const Eigen::Vector3d node = Eigen::Vector3d::Zero();
  const double speed = 1e-3, dt = 1e-4;
  const double k_t = law.friction.stiffness, c_t = law.friction.damping, limit = 0.5 * 10.0;
  const double t_slip = (limit - c_t * speed) / (k_t * speed);
  Eigen::Vector3d anchor_S = Eigen::Vector3d::Zero();
  bool started = false;
  double worst_stick = 0.0, worst_slip = 0.0;
  int sticking = 0, sliding = 0;
  for (int k = 0; k <= 10000; ++k) {
    const double t = k * dt;
    SolidMotion solid;
    solid.X_WS.translation = Eigen::Vector3d(speed * t, 0.0, half - delta);
    solid.v_WSo = Eigen::Vector3d(speed, 0.0, 0.0);
    if (!started) {  // the anchor where the contact began
      anchor_S = solid.X_WS.rotation.transpose() * (node - solid.X_WS.translation);
      started = true;
    }
    const NodeContact c = CalcNodeContact(law, tip, solid, node, Eigen::Vector3d::Zero(), anchor_S);
    ASSERT_TRUE(c.touching);
    EXPECT_NEAR(c.normal_force, 10.0, 1e-9);
    const double friction = c.force.x();  // the node is dragged along +x
    if (t < t_slip - dt) {
      EXPECT_FALSE(c.sliding) << t;
      worst_stick = std::max(worst_stick, std::abs(friction - (k_t * speed * t + c_t * speed)));
      ++sticking;
    } else if (t > t_slip + dt) {
      EXPECT_TRUE(c.sliding) << t;
      worst_slip = std::max(worst_slip, std::abs(friction - limit));
      ++sliding;
    }
    anchor_S = UpdateNodeAnchor(law, solid, c, node, anchor_S);
    if (c.sliding) {
      // The spring holds exactly the sliding force: the anchor, carried ahead by the tip,
      // leads the node by mu f_n / k_t.
      const Eigen::Vector3d anchor_W = solid.X_WS.rotation * anchor_S + solid.X_WS.translation;
      EXPECT_NEAR((anchor_W - node).x(), limit / k_t, 1e-12);
    }
  }
  EXPECT_GT(sticking, 4900);
  EXPECT_GT(sliding, 4900);
  EXPECT_LT(worst_stick, 1e-9);
  EXPECT_LT(worst_slip, 1e-9);
}

// Central differences of the force in the node's position (1e-9 m) and velocity (1e-7 m/s).
void CentralDifferences(const NodeContactLaw& law, const contact::Shape& tip,
                        const SolidMotion& solid, const Eigen::Vector3d& p,
                        const Eigen::Vector3d& v, const Eigen::Vector3d& anchor,
                        Eigen::Matrix3d* dp, Eigen::Matrix3d* dv) {
  for (int j = 0; j < 3; ++j) {
    const double hp = 1e-9, hv = 1e-7;
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(j);
    dp->col(j) = (CalcNodeContact(law, tip, solid, p + hp * e, v, anchor).force -
                  CalcNodeContact(law, tip, solid, p - hp * e, v, anchor).force) /
                 (2 * hp);
    dv->col(j) = (CalcNodeContact(law, tip, solid, p, v + hv * e, anchor).force -
                  CalcNodeContact(law, tip, solid, p, v - hv * e, anchor).force) /
                 (2 * hv);
  }
}

// The slopes the block hands an implicit solver match differences of the force, sticking and
// (across the slip) sliding.
TEST(NodeContactTest, SlopesMatchDifferences) {
  const NodeContactLaw law = TipLaw(kTipRadius);
  const contact::Shape tip = contact::Shape::Sphere(kTipRadius);
  SolidMotion solid;
  solid.X_WS.translation = Eigen::Vector3d(0.0, 0.0, kTipRadius - 5e-4);
  const Eigen::Vector3d p(1e-5, -2e-5, 0.0), v(1e-4, 0.0, 2e-4);
  const Eigen::Vector3d anchor(0.0, 0.0, -(kTipRadius - 5e-4));
  const NodeContact c = CalcNodeContact(law, tip, solid, p, v, anchor);
  ASSERT_TRUE(c.touching);
  ASSERT_FALSE(c.sliding);
  Eigen::Matrix3d dp, dv;
  CentralDifferences(law, tip, solid, p, v, anchor, &dp, &dv);
  // The sticking spring's turning with the tangent plane (of the order of f_n / R_f) is left
  // out; measured 6e-4 of the whole.
  EXPECT_LT((dp - c.dforce_dposition).norm(),
            1e-2 * c.dforce_dposition.norm() + 2.0 * c.normal_force / kTipRadius);
  EXPECT_LT((dv - c.dforce_dvelocity).norm(), 1e-6 * c.dforce_dvelocity.norm());
}

// Sliding (the anchor 5 mm away): the force is mu f_n along the stretch, and its slopes (f_n's,
// the stretch's turning, and the tangent plane's with the normal) match differences.
TEST(NodeContactTest, SlidingSlopesMatchDifferences) {
  const NodeContactLaw law = TipLaw(kTipRadius);
  const contact::Shape tip = contact::Shape::Sphere(kTipRadius);
  SolidMotion solid;
  solid.X_WS.translation = Eigen::Vector3d(0.0, 0.0, kTipRadius - 5e-4);
  const Eigen::Vector3d p(1e-5, -2e-5, 0.0), v(1e-4, 0.0, 2e-4);
  const Eigen::Vector3d anchor(5e-3, 1e-3, -(kTipRadius - 5e-4));
  const NodeContact c = CalcNodeContact(law, tip, solid, p, v, anchor);
  ASSERT_TRUE(c.touching);
  ASSERT_TRUE(c.sliding);
  EXPECT_NEAR((c.force - c.normal_force * c.normal).norm(), 0.5 * c.normal_force, 1e-12);
  Eigen::Matrix3d dp, dv;
  CentralDifferences(law, tip, solid, p, v, anchor, &dp, &dv);
  EXPECT_LT((dp - c.dforce_dposition).norm(), 1e-5 * c.dforce_dposition.norm());
  EXPECT_LT((dv - c.dforce_dvelocity).norm(), 1e-6 * dv.norm() + 1e-9);
}

}  // namespace
}  // namespace twinblocks::deformable
