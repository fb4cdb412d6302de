#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

std::vector<double> Rounded(const std::string& function, const std::vector<double>& u) {
  BlockHarness h("Rounding", {{"function", function}}, {static_cast<int>(u.size())});
  h.Initialize();
  h.SetInput(0, u);
  h.MajorStep(0.0);
  return h.Output();
}

TEST(RoundingTest, FloorCeilRoundFixAsMatlabs) {
  const std::vector<double> u = {-2.5, -1.5, -0.4, 0.0, 0.5, 1.7};
  EXPECT_THAT(Rounded("floor", u), ElementsAre(-3, -2, -1, 0, 0, 1));
  EXPECT_THAT(Rounded("ceil", u), ElementsAre(-2, -1, -0.0, 0, 1, 2));
  EXPECT_THAT(Rounded("round", u), ElementsAre(-3, -2, -0.0, 0, 1, 2));  // halves away from 0
  EXPECT_THAT(Rounded("fix", u), ElementsAre(-2, -1, -0.0, 0, 0, 1));
}

TEST(RoundingTest, HeldInsideStepsWithCrossingsAtTheEndsOfTheInterval) {
  BlockHarness h("Rounding", {{"function", "floor"}}, {1});
  h.Initialize();
  h.SetInput(0, {1.25});
  h.MajorStep(0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.25, 0.75));  // u - 1, 2 - u
  h.SetInput(0, {2.5});  // past the jump inside a step: held, and u left [1, 2)
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.5, -0.5));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 2.0);
  BlockHarness fix("Rounding", {{"function", "fix"}}, {1});
  fix.Initialize();
  fix.SetInput(0, {-0.5});
  fix.MajorStep(0.0);
  EXPECT_THAT(fix.ZeroCrossings(), ElementsAre(0.5, 1.5));  // fix is 0 on (-1, 1)
}

// The integral of floor(t) from 0 to 3.5 is 0 + 1 + 2 + 3 * 0.5 = 4.5: the solver lands on
// each jump (three crossings), so the variable-step solution has no error from them.
TEST(RoundingTest, SolverLandsOnEveryJump) {
  const twinblocks::testing::RunOutput r =
      twinblocks::testing::RunModelText(R"(<?xml version="1.0"?>
<model name="floor_area" format="1">
  <simulation solver="ode45" t_end="3.5" rtol="1e-8" atol="1e-10"/>
  <block type="Clock" name="t"/>
  <block type="Rounding" name="floor" function="floor"/>
  <block type="Integrator" name="area"/>
  <connect from="t.t" to="floor.u"/>
  <connect from="floor.y" to="area.u"/>
  <log signal="area.y" as="area"/>
</model>)");
  ASSERT_TRUE(r.outcome.ok) << r.outcome.error;
  EXPECT_NEAR(twinblocks::testing::Column(r.recording, "area").back(), 4.5, 1e-9);
  EXPECT_EQ(r.stats.solver.zero_crossings, 3);
}

}  // namespace
}  // namespace twinblocks::blocks
