// RateLimiter: Simulink's algorithm at a continuous rate (y(t0) = u(t0), the rate from the
// last major step, y moving with t inside the steps) and at a discrete one (dt = Ts from the
// initial condition); a ramp limited to the rising rate under ode45; no allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

TEST(RateLimiterTest, ContinuousRateFromTheLastMajorStep) {
  BlockHarness h("RateLimiter", {{"rising", "1"}, {"falling", "-2"}, {"initial_condition", "9"}},
                 {1});
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize(0.0);
  h.SetInputs({0.25});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.25);  // y(t0) = u(t0): the initial condition is not used
  h.SetInputs({10.0});
  h.MinorOutputs(0.25);
  EXPECT_EQ(h.Out(), 0.5);  // rising at 1 per s inside the step
  h.MajorStep(0.5);
  EXPECT_EQ(h.Out(), 0.75);
  h.SetInputs({-10.0});
  h.MajorStep(1.0);
  EXPECT_EQ(h.Out(), -0.25);  // falling at 2 per s
  h.SetInputs({0.0});
  h.MajorStep(1.5);
  EXPECT_EQ(h.Out(), 0.0);  // within both rates: y = u
  h.SetInputs({5.0});
  h.MajorStep(1.5);  // a second major step at the same time moves nothing
  EXPECT_EQ(h.Out(), 0.0);
}

TEST(RateLimiterTest, DiscreteRateStartsFromTheInitialCondition) {
  BlockHarness h("RateLimiter",
                 {{"rising", "10"}, {"falling", "-5"}, {"initial_condition", "3"}, {"Ts", "0.1"}},
                 {1});
  EXPECT_FALSE(h.block().depends_on_time());
  h.Initialize(0.0);
  std::vector<double> y;
  for (int k = 0; k < 6; ++k) {
    h.SetInputs({k < 3 ? 0.0 : 10.0});
    h.MajorStep(0.1 * k);
    h.MajorStep(0.1 * k + 0.05);  // between hits: held
    y.push_back(h.Out());
  }
  // From 3 towards 0 by 0.5 a sample, then towards 10 by 1 a sample.
  EXPECT_THAT(y, ElementsAre(2.5, 2.0, 1.5, 2.5, 3.5, 4.5));
}

TEST(RateLimiterTest, InheritingADiscreteRateLimitsPerSample) {
  BlockHarness::Options options;
  options.inherited_as = SampleTime::Discrete(0.2);
  BlockHarness h("RateLimiter", {{"rising", "1"}}, {2}, options);
  h.Initialize(0.0);
  h.SetInput(0, {1.0, 0.1});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.2, 0.1));
}

// u = 5 t through rising = 2: y = 2 t at every major step, exactly; its integral t^2.
TEST(RateLimiterTest, ARampLimitedToTheRisingRateUnderOde45) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="rate_limited_ramp" format="1">
  <simulation solver="ode45" t_end="3" rtol="1e-10" atol="1e-12"/>
  <block type="Ramp" name="u" slope="5"/>
  <block type="RateLimiter" name="limit" rising="2"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="limit.u"/>
  <connect from="limit.y" to="x.u"/>
  <log signal="limit.y" as="y"/>
  <log signal="x.y" as="x"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  const std::vector<double> x = twinblocks::testing::Column(out.recording, "x");
  for (size_t k = 0; k < t.size(); ++k) {
    EXPECT_NEAR(y[k], 2.0 * t[k], 1e-12) << t[k];
    EXPECT_NEAR(x[k], t[k] * t[k], 1e-9) << t[k];
  }
}

TEST(RateLimiterTest, AllocatesNothingWhileStepping) {
  BlockHarness h("RateLimiter", {{"rising", "[1, 2]"}}, {2});
  h.Initialize();
  std::vector<double> u(2);
  const long allocations = testing::AllocationsWhileStepping(h, 200, 0.01, [&](double t) {
    u[0] = std::sin(10.0 * t);
    u[1] = 3.0 * t;
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
