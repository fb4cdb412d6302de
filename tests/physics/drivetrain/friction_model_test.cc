// The Simscape rotational-friction curve (Boschetti & Sinico 2024, "Designing Digital Twins of
// Robots Using Simscape Multibody", eq. 25-26) with the reference arm's joint values
// (models/robot6dof/twin.xml: T_brk 13 N m, w_brk 0.1 rad/s, T_C 10 N m, f 0.001 N m s/rad).
#include "physics/drivetrain/friction_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace twinblocks::drivetrain {
namespace {

const FrictionParameters kJoint{13.0, 0.1, 10.0, 0.001};

TEST(FrictionModel, IsOddAndViscousFarFromZero) {
  for (double w : {1e-6, 0.01, 0.1, 1.0, 10.0}) {
    EXPECT_DOUBLE_EQ(FrictionTorque(kJoint, -w), -FrictionTorque(kJoint, w));
  }
  EXPECT_EQ(FrictionTorque(kJoint, 0.0), 0.0);
  // Far from zero the Stribeck peak has decayed: Coulomb plus viscous.
  EXPECT_NEAR(FrictionTorque(kJoint, 10.0), 10.0 + 0.001 * 10.0, 1e-12);
}

TEST(FrictionModel, PeaksAtTheBreakawayTorqueAtTheBreakawayVelocity) {
  // At w = w_brk the Stribeck term is exactly T_brk - T_C; tanh(10) and f w_brk add 1e-4.
  EXPECT_NEAR(FrictionTorque(kJoint, 0.1), 13.0, 2e-4);
  double peak = 0.0, at = 0.0;
  for (int i = 1; i <= 4000; ++i) {
    const double w = 1e-4 * i;
    if (FrictionTorque(kJoint, w) > peak) {
      peak = FrictionTorque(kJoint, w);
      at = w;
    }
  }
  EXPECT_NEAR(peak, 13.0, 0.01 * 13.0);
  EXPECT_NEAR(at, 0.1, 0.02);
}

TEST(FrictionModel, MatchesTheTermsWrittenOut) {
  const double e = std::exp(1.0);
  for (double w : {-0.3, -0.05, 0.002, 0.07, 0.5}) {
    const double w_st = 0.1 * std::sqrt(2.0), w_coul = 0.01;
    const double expected = std::sqrt(2 * e) * 3.0 * std::exp(-std::pow(w / w_st, 2)) * (w / w_st) +
                            10.0 * std::tanh(w / w_coul) + 0.001 * w;
    EXPECT_NEAR(FrictionTorque(kJoint, w), expected, 1e-12);
  }
}

}  // namespace
}  // namespace twinblocks::drivetrain
