// VariableTransportDelay: a sine read through a delay that varies, against u(t - d(t)) under
// ode45; the located start where t - d reaches t0; the clipping of d; per-element delays; no
// allocation while stepping.
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

double Delay(double t) { return 0.5 + 0.2 * std::sin(0.5 * t); }

// u = sin(t), d = 0.5 + 0.2 sin(t / 2): y = sin(t - d(t)) once t - d(t) >= 0, 2 before.
TEST(VariableTransportDelayTest, SineThroughAVaryingDelayUnderOde45) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="variable_delay" format="1">
  <simulation solver="ode45" t_end="10" rtol="1e-8"/>
  <block type="Sine" name="u"/>
  <block type="Sine" name="d" amplitude="0.2" frequency="0.5" bias="0.5"/>
  <block type="VariableTransportDelay" name="delay" max_delay="1" initial_output="2"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="delay.u"/>
  <connect from="d.y" to="delay.d"/>
  <connect from="delay.y" to="x.u"/>
  <log signal="delay.y" as="y"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  // t - d(t) = 0: where the output starts.
  double start = 0.5;
  for (int k = 0; k < 50; ++k)
    start -= (start - Delay(start)) / (1.0 - 0.1 * std::cos(0.5 * start));
  double worst = 0.0, nearest_row = 1.0;
  for (size_t k = 0; k < t.size(); ++k) {
    nearest_row = std::min(nearest_row, std::abs(t[k] - start));
    if (std::abs(t[k] - start) < 1e-9) continue;  // the located start itself
    const double expected = t[k] < start ? 2.0 : std::sin(t[k] - Delay(t[k]));
    worst = std::max(worst, std::abs(y[k] - expected));
  }
  RecordProperty("max_abs_error", twinblocks::testing::Figure(worst));
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(nearest_row, 1e-9);  // a zero crossing landed the solver on the start
}

TEST(VariableTransportDelayTest, TheDelayIsClippedToZeroAndMaxDelay) {
  BlockHarness h("VariableTransportDelay", {{"max_delay", "0.2"}}, {1, 1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_EQ(h.block().input_port(1).feedthrough, kFeedthrough);
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize();
  auto u = [](double t) { return 1.0 + 2.0 * t; };
  for (double t : {0.0, 0.1, 0.2, 0.3, 0.4}) {
    h.SetInputs({u(t), 5.0});  // far past max_delay: read 0.2 s back
    h.MajorStep(t);
    if (t >= 0.2) {
      EXPECT_NEAR(h.Out(), u(t - 0.2), 1e-14) << t;
    }
  }
  // A negative delay reads now: past the newest sample, along the last two.
  h.SetInputs({u(0.5), -1.0});
  h.MinorOutputs(0.5);
  EXPECT_NEAR(h.Out(), u(0.5), 1e-14);
}

TEST(VariableTransportDelayTest, OneDelayPerElementOrOneForAll) {
  BlockHarness each("VariableTransportDelay", {{"max_delay", "1"}}, {2, 2});
  BlockHarness all("VariableTransportDelay", {{"max_delay", "1"}}, {2, 1});
  each.Initialize();
  all.Initialize();
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    each.SetInput(0, {t, 10.0 * t});
    each.SetInput(1, {0.25, 0.5});
    each.MajorStep(t);
    all.SetInput(0, {t, 10.0 * t});
    all.SetInput(1, {0.5});
    all.MajorStep(t);
  }
  EXPECT_THAT(each.Output(),
              ElementsAre(::testing::DoubleNear(0.75, 1e-14), ::testing::DoubleNear(5.0, 1e-13)));
  EXPECT_THAT(all.Output(),
              ElementsAre(::testing::DoubleNear(0.5, 1e-14), ::testing::DoubleNear(5.0, 1e-13)));
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness b("VariableTransportDelay", {}, {3, 2});
            }).port(),
            "d");
}

TEST(VariableTransportDelayTest, AllocatesNothingWhileStepping) {
  BlockHarness h("VariableTransportDelay", {{"max_delay", "0.5"}, {"buffer_size", "80"}}, {2, 2});
  h.Initialize();
  std::vector<double> u(2), d(2);
  const long allocations = testing::AllocationsWhileStepping(h, 500, 0.01, [&](double t) {
    u[0] = std::sin(t);
    u[1] = std::cos(t);
    d[0] = 0.2 + 0.1 * std::sin(t);
    d[1] = 0.3;
    h.SetInput(0, u);
    h.SetInput(1, d);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
  EXPECT_NEAR(h.Output()[1], std::cos(4.995 - 0.3), 1e-9);
}

}  // namespace
}  // namespace twinblocks::blocks
