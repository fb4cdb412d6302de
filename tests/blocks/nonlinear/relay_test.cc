// Relay: hysteresis by hand (strict comparisons, off at the start in between); a sine through
// it under ode45 with every switch located; no allocation.
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

std::vector<double> RelayOutputs(const testing::ParamTexts& params,
                                 const std::vector<double>& inputs) {
  BlockHarness h("Relay", params, {1});
  h.Initialize();
  std::vector<double> y;
  double t = 0.0;
  for (double u : inputs) {
    h.SetInputs({u});
    h.MajorStep(t += 0.1);
    y.push_back(h.Out());
  }
  return y;
}

TEST(RelayTest, HysteresisBetweenTheSwitchPoints) {
  const testing::ParamTexts params = {{"on_switch_point", "0.5"},
                                      {"off_switch_point", "-0.5"},
                                      {"on_value", "3"},
                                      {"off_value", "-3"}};
  EXPECT_THAT(RelayOutputs(params, {0.0, 0.5, 0.6, 0.0, -0.5, -0.6, 0.4, 0.51}),
              ElementsAre(-3, -3, 3, 3, 3, -3, -3, 3));
  // Starting above the on point: on from the start.
  EXPECT_THAT(RelayOutputs(params, {1.0, 0.0}), ElementsAre(3, 3));
  // Equal points (the defaults, 0): a switch at 0 that keeps its state on 0 itself.
  EXPECT_THAT(RelayOutputs({}, {0.0, 1e-300, 0.0, -1e-300, 0.0}), ElementsAre(0, 1, 1, 0, 0));
}

TEST(RelayTest, TheStateIsHeldInsideASolverStep) {
  BlockHarness h("Relay", {{"on_switch_point", "1"}, {"off_switch_point", "-1"}}, {1});
  h.Initialize();
  h.SetInputs({0.0});
  h.MajorStep(0.0);
  h.SetInputs({2.0});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 3.0));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
}

// u = sin t, on above 1/2, off below -1/2: on at pi/6 + 2 pi k, off at 7 pi/6 + 2 pi k.
TEST(RelayTest, ASineThroughTheRelayWithEverySwitchLocated) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="relay_sine" format="1">
  <simulation solver="ode45" t_end="13"/>
  <block type="Sine" name="u"/>
  <block type="Relay" name="relay" on_switch_point="0.5" off_switch_point="-0.5"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="relay.u"/>
  <connect from="relay.y" to="x.u"/>
  <log signal="relay.y" as="y"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  const double pi = std::numbers::pi;
  std::vector<double> switches;
  for (double base = 0.0; base < 13.0; base += 2.0 * pi) {
    for (double s : {base + pi / 6.0, base + 7.0 * pi / 6.0}) {
      if (s < 13.0) switches.push_back(s);
    }
  }
  for (double s : switches) {
    double nearest = 1.0;
    for (double tk : t) nearest = std::min(nearest, std::abs(tk - s));
    EXPECT_LT(nearest, 1e-9) << s;
  }
  for (size_t k = 0; k < t.size(); ++k) {
    const double phase = std::fmod(t[k], 2.0 * pi);
    // A located switch's row is a hair past it.
    const double expected = phase > pi / 6.0 - 1e-9 && phase < 7.0 * pi / 6.0 - 1e-9 ? 1.0 : 0.0;
    EXPECT_EQ(y[k], expected) << t[k];
  }
}

TEST(RelayTest, AllocatesNothingWhileStepping) {
  BlockHarness h("Relay", {{"on_switch_point", "0.1"}, {"off_switch_point", "-0.1"}}, {2});
  h.Initialize();
  std::vector<double> u(2);
  const long allocations = testing::AllocationsWhileStepping(h, 300, 0.01, [&](double t) {
    u[0] = std::sin(7.0 * t);
    u[1] = -u[0];
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
