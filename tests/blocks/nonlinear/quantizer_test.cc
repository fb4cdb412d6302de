// Quantizer: q round(u / q) with halves away from zero; the level held inside the solver's
// steps; a ramp quantized under ode45 with every jump located; no allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/step_allocations.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;

TEST(QuantizerTest, RoundsToMultiplesOfTheInterval) {
  BlockHarness h("Quantizer", {{"interval", "0.5"}}, {6});
  h.Initialize();
  h.SetInput(0, {0.24, 0.26, -0.25, 0.25, 1.74, -3.1});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 0.5, -0.5, 0.5, 1.5, -3.0));
  BlockHarness v("Quantizer", {{"interval", "[1, 0.1]"}}, {1});
  v.Initialize();
  v.SetInput(0, {2.345});
  v.MajorStep(0.0);
  EXPECT_THAT(v.Output(), ElementsAre(2.0, ::testing::DoubleNear(2.3, 1e-15)));
}

TEST(QuantizerTest, TheLevelIsHeldInsideASolverStep) {
  BlockHarness h("Quantizer", {{"interval", "0.5"}}, {1});
  h.Initialize();
  h.SetInputs({0.3});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.5);
  h.SetInputs({0.9});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.5);
  // The jumps above and below the level: the upper one crossed.
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.9 - 0.75, 0.9 - 0.25));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
}

// u = t quantized by 0.5: every jump (0.25, 0.75, ...) is a major step, and the integral of
// the staircase over [0, 4] is exact: 0.5 (0.5 + 1 + ... + 3.5) + 4 x 0.25 = 8.
TEST(QuantizerTest, ARampQuantizedWithEveryJumpLocated) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="quantized_ramp" format="1">
  <simulation solver="ode45" t_end="4" rtol="1e-10" atol="1e-12"/>
  <block type="Ramp" name="u"/>
  <block type="Quantizer" name="q" interval="0.5"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="q.u"/>
  <connect from="q.y" to="x.u"/>
  <log signal="q.y" as="y"/>
  <log signal="x.y" as="x"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  const std::vector<double> x = twinblocks::testing::Column(out.recording, "x");
  for (double jump = 0.25; jump < 4.0; jump += 0.5) {
    double nearest = 1.0;
    for (double tk : t) nearest = std::min(nearest, std::abs(tk - jump));
    EXPECT_LT(nearest, 1e-12) << jump;
  }
  for (size_t k = 0; k < t.size(); ++k) {
    // At a located jump the row is a hair past it: already the level above.
    EXPECT_EQ(y[k], 0.5 * std::round((t[k] + 1e-12) / 0.5)) << t[k];
  }
  EXPECT_NEAR(x.back(), 8.0, 1e-9);
}

TEST(QuantizerTest, AllocatesNothingWhileStepping) {
  BlockHarness h("Quantizer", {}, {3});
  h.Initialize();
  std::vector<double> u(3);
  const long allocations = testing::AllocationsWhileStepping(h, 200, 0.01, [&](double t) {
    for (int i = 0; i < 3; ++i) u[i] = (i + 1) * std::sin(t);
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
