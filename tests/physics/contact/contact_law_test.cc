// The force laws of SpatialContactForce against their equations (contact_law.h).
#include "physics/contact/contact_law.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinblocks::contact {
namespace {

TEST(ContactLaw, KelvinVoigtRampsInOverTheTransitionRegion) {
  ContactLaw law;
  law.stiffness = 1e6;
  law.damping = 1e3;
  law.transition_width = 1e-4;
  // Beyond the region: k delta + c delta'.
  EXPECT_DOUBLE_EQ(NormalForce(law, 2e-4, 0.01), 1e6 * 2e-4 + 1e3 * 0.01);
  // Halfway: s(1/2) = 1/2.
  EXPECT_NEAR(NormalForce(law, 5e-5, 0.01), 0.5 * (1e6 * 5e-5 + 1e3 * 0.01), 1e-12);
  // A quarter: s = 3/16 - 2/64 = 5/32.
  EXPECT_NEAR(NormalForce(law, 2.5e-5, 0.0), 5.0 / 32.0 * 1e6 * 2.5e-5, 1e-12);
  // Continuous at the start of contact, even when approaching fast.
  EXPECT_LT(NormalForce(law, 1e-12, 1.0), 1e-12);
  EXPECT_EQ(NormalForce(law, 0.0, 1.0), 0.0);
  EXPECT_EQ(NormalForce(law, -1e-3, 1.0), 0.0);
  // Without a transition region the damping force starts at once.
  law.transition_width = 0.0;
  EXPECT_DOUBLE_EQ(NormalForce(law, 1e-12, 1.0), 1e6 * 1e-12 + 1e3);
}

TEST(ContactLaw, NeverPulls) {
  for (NormalForceModel model : {NormalForceModel::kKelvinVoigt, NormalForceModel::kHuntCrossley,
                                 NormalForceModel::kHertz}) {
    ContactLaw law;
    law.model = model;
    law.transition_width = 0.0;
    // Separating fast: the damping term would pull (k delta^n < c delta^n |delta'| and
    // k delta^n < c |delta'| with the defaults k = 1e6, c = 1e3).
    EXPECT_EQ(NormalForce(law, 1e-4, -1e4), 0.0);
  }
}

TEST(ContactLaw, HuntCrossleyAndHertz) {
  ContactLaw law;
  law.stiffness = 2e9;
  law.damping = 3e4;
  law.exponent = 1.5;
  law.model = NormalForceModel::kHuntCrossley;
  const double d = 1e-5, dd = 0.2;
  EXPECT_NEAR(NormalForce(law, d, dd), 2e9 * std::pow(d, 1.5) * (1.0 + 3e4 / 2e9 * dd), 1e-9);
  law.model = NormalForceModel::kHertz;
  law.damping = 5.0;
  EXPECT_NEAR(NormalForce(law, d, dd), 2e9 * std::pow(d, 1.5) + 5.0 * dd, 1e-9);
}

TEST(ContactLaw, HertzConstantsFromMaterials) {
  // Zaidi et al. 2020, "Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects",
  // eq. 6-8 with its foam (E = 4.928 MPa, nu = 0.39) against a rigid-ish finger.
  const double E1 = 2e9, nu1 = 0.3, E2 = 4.928e6, nu2 = 0.39, R = 0.02;
  const double psi = 1.0 / ((1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2);
  EXPECT_NEAR(HertzStiffness(E1, nu1, E2, nu2, R), 2.0 * psi * std::sqrt(R), 1e-6);
  EXPECT_NEAR(HertzDamping(7.0, R), 4.0 * std::numbers::pi * R * 7.0, 1e-12);
  EXPECT_THROW(HertzStiffness(E1, nu1, E2, nu2, std::numeric_limits<double>::infinity()),
               std::invalid_argument);
  EXPECT_THROW(HertzStiffness(-1.0, nu1, E2, nu2, R), std::invalid_argument);
  EXPECT_THROW(HertzStiffness(E1, 0.5, E2, nu2, R), std::invalid_argument);
}

TEST(ContactLaw, SmoothStickSlipCurve) {
  ContactLaw law;
  law.friction = FrictionModel::kSmoothStickSlip;
  law.mu_s = 0.5;
  law.mu_d = 0.3;
  law.v_crit = 1e-3;
  EXPECT_EQ(FrictionCoefficient(law, 0.0), 0.0);
  EXPECT_NEAR(FrictionCoefficient(law, 0.5e-3), 0.5 * 0.75, 1e-15);  // s (2 - s) at 1/2
  EXPECT_DOUBLE_EQ(FrictionCoefficient(law, 1e-3), 0.5);             // the peak
  EXPECT_NEAR(FrictionCoefficient(law, 1.5e-3), 0.4, 1e-15);         // halfway down
  EXPECT_DOUBLE_EQ(FrictionCoefficient(law, 2e-3), 0.3);
  EXPECT_DOUBLE_EQ(FrictionCoefficient(law, 1.0), 0.3);
  // Continuous with a continuous slope: finite differences agree across the joins.
  for (double v : {1e-3, 2e-3}) {
    const double h = 1e-9;
    const double left = (FrictionCoefficient(law, v) - FrictionCoefficient(law, v - h)) / h;
    const double right = (FrictionCoefficient(law, v + h) - FrictionCoefficient(law, v)) / h;
    // The slopes' natural scale is mu_s / v_crit = 500 per (m/s); one-sided differences
    // differ by O(h) there, a jump would differ by O(500).
    EXPECT_NEAR(left, right, 1.0) << "slope jumps at v = " << v;
    EXPECT_NEAR(FrictionCoefficient(law, v - h), FrictionCoefficient(law, v + h), 1e-6);
  }
  // Never above the peak, never below zero.
  for (double v = 0.0; v < 5e-3; v += 1e-5) {
    EXPECT_LE(FrictionCoefficient(law, v), 0.5 + 1e-15);
    EXPECT_GE(FrictionCoefficient(law, v), 0.0);
  }
}

TEST(ContactLaw, RegularizedCoulombUsesOneCoefficient) {
  ContactLaw law;
  law.friction = FrictionModel::kCoulomb;
  law.mu_s = 0.9;
  law.mu_d = 0.4;
  law.v_crit = 1e-2;
  EXPECT_NEAR(FrictionCoefficient(law, 0.5e-2), 0.4 * 0.75, 1e-15);
  EXPECT_DOUBLE_EQ(FrictionCoefficient(law, 1e-2), 0.4);
  EXPECT_DOUBLE_EQ(FrictionCoefficient(law, 3.0), 0.4);
  law.friction = FrictionModel::kNone;
  EXPECT_EQ(FrictionCoefficient(law, 3.0), 0.0);
}

std::string CheckMessage(const ContactLaw& law) {
  try {
    CheckContactLaw(law);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ContactLaw, ChecksNameTheParameter) {
  ContactLaw law;
  EXPECT_EQ(CheckMessage(law), "");
  law.stiffness = -1.0;
  EXPECT_EQ(CheckMessage(law).rfind("stiffness: must be zero or positive", 0), 0u);
  law = {};
  law.damping = -1.0;
  EXPECT_EQ(CheckMessage(law).rfind("damping:", 0), 0u);
  law = {};
  law.transition_width = -1e-4;
  EXPECT_EQ(CheckMessage(law).rfind("transition_width:", 0), 0u);
  law = {};
  law.exponent = 0.5;
  EXPECT_EQ(CheckMessage(law).rfind("exponent:", 0), 0u);
  law = {};
  law.friction = FrictionModel::kSmoothStickSlip;
  law.mu_s = 0.3;
  law.mu_d = 0.5;
  EXPECT_EQ(CheckMessage(law).rfind("mu_d: the dynamic coefficient 0.5 exceeds", 0), 0u);
  law.mu_d = 0.2;
  law.v_crit = 0.0;
  EXPECT_EQ(CheckMessage(law).rfind("v_crit:", 0), 0u);
  // Friction parameters do not matter without friction.
  law.friction = FrictionModel::kNone;
  EXPECT_EQ(CheckMessage(law), "");
}

// A law of each normal-force model, with parameters that give forces of the same order.
std::vector<ContactLaw> LawOfEachModel() {
  std::vector<ContactLaw> laws;
  for (NormalForceModel model : {NormalForceModel::kKelvinVoigt, NormalForceModel::kHuntCrossley,
                                 NormalForceModel::kHertz}) {
    ContactLaw law;
    law.model = model;
    law.stiffness = model == NormalForceModel::kKelvinVoigt ? 1e6 : 1e9;
    law.damping = model == NormalForceModel::kHuntCrossley ? 1e9 : 1e3;
    laws.push_back(law);
  }
  return laws;
}

// The derivatives the Jacobian uses, against central differences of the force, for each
// model: over the penetration rate (the damping) and over the penetration (the stiffness,
// inside the Kelvin-Voigt transition region, where the ramp's slope adds to it, and beyond);
// zero where the force is clamped or there is no contact.
TEST(ContactLaw, RateAndDepthDerivativesAreTheSlopesOfTheNormalForce) {
  for (const ContactLaw& law : LawOfEachModel()) {
    for (const double delta : {3e-5, 7e-5, 2e-4}) {
      SCOPED_TRACE("model " + std::to_string(static_cast<int>(law.model)) + " delta " +
                   std::to_string(delta));
      const double rate = 0.01, h_rate = 1e-6, h_depth = 1e-10;
      const double over_rate =
          (NormalForce(law, delta, rate + h_rate) - NormalForce(law, delta, rate - h_rate)) /
          (2 * h_rate);
      const double over_depth =
          (NormalForce(law, delta + h_depth, rate) - NormalForce(law, delta - h_depth, rate)) /
          (2 * h_depth);
      EXPECT_NEAR(NormalForceRateDerivative(law, delta, rate), over_rate,
                  1e-6 * std::abs(over_rate));
      EXPECT_NEAR(NormalForceDepthDerivative(law, delta, rate), over_depth,
                  1e-5 * std::abs(over_depth));
      EXPECT_GT(over_rate, 0.0);
      EXPECT_GT(over_depth, 0.0);
    }
    // Separating so fast that the force is clamped at zero: nothing to be implicit in.
    EXPECT_EQ(NormalForceRateDerivative(law, 1e-4, -1e3), 0.0);
    EXPECT_EQ(NormalForceRateDerivative(law, -1e-4, 0.0), 0.0);
    EXPECT_EQ(NormalForceDepthDerivative(law, 1e-4, -1e3), 0.0);
    EXPECT_EQ(NormalForceDepthDerivative(law, -1e-4, 0.0), 0.0);
  }
}

// mu(v) / v: the secant of each friction curve, finite at zero (its slope there, 2 mu / v_crit).
TEST(ContactLaw, FrictionPerSpeedIsTheSecantOfTheCurve) {
  ContactLaw law;
  law.friction = FrictionModel::kSmoothStickSlip;
  for (const double v : {1e-5, 5e-4, 1e-3, 1.5e-3, 3e-3, 0.1}) {
    EXPECT_NEAR(FrictionCoefficientPerSpeed(law, v), FrictionCoefficient(law, v) / v,
                1e-12 * FrictionCoefficient(law, v) / v)
        << v;
  }
  EXPECT_DOUBLE_EQ(FrictionCoefficientPerSpeed(law, 0.0), 2 * law.mu_s / law.v_crit);
  law.friction = FrictionModel::kCoulomb;
  for (const double v : {1e-5, 5e-4, 1e-3, 3e-3}) {
    EXPECT_NEAR(FrictionCoefficientPerSpeed(law, v), FrictionCoefficient(law, v) / v,
                1e-12 * FrictionCoefficient(law, v) / v)
        << v;
  }
  EXPECT_DOUBLE_EQ(FrictionCoefficientPerSpeed(law, 0.0), 2 * law.mu_d / law.v_crit);
  law.friction = FrictionModel::kNone;
  EXPECT_EQ(FrictionCoefficientPerSpeed(law, 0.0), 0.0);
  EXPECT_EQ(FrictionCoefficientPerSpeed(law, 1.0), 0.0);
}

}  // namespace
}  // namespace twinblocks::contact
