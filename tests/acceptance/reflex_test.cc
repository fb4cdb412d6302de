// The Reflex experiment (models/hands/reflex_cylinder.xml): the RightHand Reflex, its three
// tendons pulled by servos (elastic tendons), closes on an upright cylinder on the ground and
// lifts it with the hand. The fingers stop on the ground first and close on the cylinder as
// the hand rises; from 1.5 s on the cylinder moves with the hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(ReflexCylinder, TheHandLiftsTheCylinderAndHoldsIt) {
  const RunOutput out = RunModelFile("models/hands/reflex_cylinder.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  ASSERT_EQ(t.back(), 2.5);
  const std::vector<double> z = Column(out.recording, "cylinder_position[2]");
  // Lifted: the hand rises 0.1 m on [1, 2] s; the cylinder (centre at 0.05 m on the ground)
  // rises more than half of it (measured: 0.068 m).
  EXPECT_GT(z.back() - z.front(), 0.05);
  // Held: from 1.5 s on, its centre moves less than 2 mm in the hand's frame (measured:
  // 0.55 mm).
  size_t start = 0;
  while (t[start] < 1.5) ++start;
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const std::vector<double> in_hand =
        Column(out.recording, "cylinder_in_hand[" + std::to_string(k) + "]");
    double moved = 0.0;
    for (size_t i = start; i < t.size(); ++i) {
      moved = std::max(moved, std::abs(in_hand[i] - in_hand[start]));
    }
    EXPECT_LT(moved, 2e-3);
  }
}

}  // namespace
}  // namespace twinblocks::testing
