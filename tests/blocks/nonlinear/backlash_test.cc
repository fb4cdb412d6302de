// Backlash: the play operator by hand, held inside the solver's steps; a sine through it under
// ode45, against the play operator on the rows and against the closed form; no allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/step_allocations.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;

TEST(BacklashTest, ThePlayOperatorByHand) {
  BlockHarness h("Backlash", {{"deadband_width", "1"}, {"initial_output", "0"}}, {1});
  h.Initialize();
  std::vector<double> y;
  double t = 0.0;
  for (double u : {0.3, 0.8, 1.0, 0.9, 0.2, -0.2, -0.1, 0.45}) {
    h.SetInputs({u});
    h.MajorStep(t += 0.1);
    y.push_back(h.Out());
  }
  // Inside the band; engaged up (u - 1/2); turned round: held; engaged down (u + 1/2); held.
  EXPECT_THAT(y, ElementsAre(0.0, ::testing::DoubleEq(0.3), 0.5, 0.5, 0.5, ::testing::DoubleEq(0.3),
                             ::testing::DoubleEq(0.3), ::testing::DoubleEq(0.3)));
  EXPECT_THAT(h.modes(), ElementsAre(0));
}

TEST(BacklashTest, EngagedTheOutputFollowsButNeverBackInsideAStep) {
  BlockHarness h("Backlash", {{"deadband_width", "2"}, {"initial_output", "5"}}, {1});
  h.Initialize();
  h.SetInputs({7.0});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 6.0);
  EXPECT_THAT(h.modes(), ElementsAre(1));
  h.SetInputs({7.5});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 6.5);
  h.SetInputs({6.5});
  h.MinorOutputs(0.2);
  EXPECT_EQ(h.Out(), 6.0);  // back below where the major step left it: held there
  // u - w/2 - y_held went negative: the solver locates where the input came back.
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-0.5, 1.5));
}

// u = sin t through a deadband of 1: engaged up from u = 1/2, held at 1/2 from the peak until
// u falls to 0, engaged down to -1/2 at the trough, held until u rises to 0, ...
TEST(BacklashTest, ASineThroughThePlayUnderOde45) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="backlash_sine" format="1">
  <simulation solver="ode45" t_end="12" rtol="1e-8" max_step="0.01"/>
  <block type="Sine" name="u"/>
  <block type="Backlash" name="play"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="play.u"/>
  <connect from="play.y" to="x.u"/>
  <log signal="u.y" as="u"/>
  <log signal="play.y" as="y"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> u = twinblocks::testing::Column(out.recording, "u");
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  // The play operator on the rows, exactly: a row per major step.
  double held = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    held = std::min(std::max(held, u[k] - 0.5), u[k] + 0.5);
    EXPECT_EQ(y[k], held) << t[k];
  }
  // The closed form, to how far u moves in a step (max_step 0.01 s: 1.25e-5 at a peak).
  double worst = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    const double phase = std::fmod(t[k], 2.0 * std::numbers::pi);
    double expected;
    if (t[k] <= std::numbers::pi / 6.0) {
      expected = 0.0;
    } else if (phase >= 0.5 * std::numbers::pi && phase <= std::numbers::pi) {
      expected = 0.5;
    } else if (phase >= 1.5 * std::numbers::pi) {
      expected = -0.5;
    } else {
      expected = std::cos(t[k]) > 0.0 ? u[k] - 0.5 : u[k] + 0.5;
    }
    worst = std::max(worst, std::abs(y[k] - expected));
  }
  EXPECT_LT(worst, 2e-5);
  // Engaging down near t = pi, where u + 1/2 comes to the output held since the peak, and up
  // again near 2 pi: rows on located crossings, where u reaches the band's side to 1e-9.
  for (double near : {std::numbers::pi, 2.0 * std::numbers::pi}) {
    bool located = false;
    for (size_t k = 1; k < t.size(); ++k) {
      const double side = near < 4.0 ? u[k] + 0.5 : u[k] - 0.5;
      located = located || (std::abs(t[k] - near) < 1e-4 && std::abs(side - y[k - 1]) < 1e-9);
    }
    EXPECT_TRUE(located) << near;
  }
}

TEST(BacklashTest, AllocatesNothingWhileStepping) {
  BlockHarness h("Backlash", {{"deadband_width", "[0.5, 1]"}}, {2});
  h.Initialize();
  std::vector<double> u(2);
  const long allocations = testing::AllocationsWhileStepping(h, 300, 0.01, [&](double t) {
    u[0] = std::sin(5.0 * t);
    u[1] = std::cos(5.0 * t);
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
