// TransportDelay: the delayed sine against its closed form under ode45 (the accuracy target
// L3), the start at t0 + delay, a delayed feedback loop against the method of steps, a
// history too short for the delay, and no allocation while stepping.
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
using ::testing::HasSubstr;

// Sine (w rad/s) -> TransportDelay (0.5 s) -> Integrator: the integrator gives ode45 a state
// to take its steps for; the delay samples the sine at those steps.
std::string SineThroughDelay(double w, const std::string& settings) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="sine_delay" format="1">
  <var name="w" value=")" +
         std::to_string(w) + R"("/>
  <simulation solver="ode45" t_end="10" )" +
         settings + R"(/>
  <block type="Sine" name="u" frequency="w"/>
  <block type="TransportDelay" name="delay" delay="0.5"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="delay.u"/>
  <connect from="delay.y" to="x.u"/>
  <log signal="delay.y" as="y"/>
</model>
)";
}

// The sine made by ode45 itself (s' = w c, c' = -w s), then delayed.
std::string OscillatorThroughDelay(double w, const std::string& settings) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="oscillator_delay" format="1">
  <var name="w" value=")" +
         std::to_string(w) + R"("/>
  <simulation solver="ode45" t_end="10" )" +
         settings + R"(/>
  <block type="Integrator" name="s" x0="0"/>
  <block type="Integrator" name="c" x0="1"/>
  <block type="Gain" name="ws" k="w"/>
  <block type="Gain" name="wc" k="-w"/>
  <block type="TransportDelay" name="delay" delay="0.5"/>
  <connect from="c.y" to="ws.u"/>
  <connect from="ws.y" to="s.u"/>
  <connect from="s.y" to="wc.u"/>
  <connect from="wc.y" to="c.u"/>
  <connect from="s.y" to="delay.u"/>
  <log signal="delay.y" as="y"/>
</model>
)";
}

/// max |y - sin(w (t - 0.5))| over the rows (y = 0 before 0.5 s).
double WorstDelayError(const twinblocks::testing::RunOutput& out, double w) {
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
  double worst = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    const double expected = t[k] < 0.5 ? 0.0 : std::sin(w * (t[k] - 0.5));
    worst = std::max(worst, std::abs(y[k] - expected));
  }
  return worst;
}

// L3: y(t) = u(t - T) for a sine, to 1e-6 under ode45 at rtol 1e-8 (default atol 1e-6,
// default max_step t_end / 50). Measured 4.4e-7; linear interpolation would give 5e-3.
TEST(TransportDelayTest, SineDelayedToOneMillionthUnderOde45) {
  const double worst = WorstDelayError(
      twinblocks::testing::RunModelText(SineThroughDelay(1.0, R"(rtol="1e-8")")), 1.0);
  RecordProperty("max_abs_error", twinblocks::testing::Figure(worst));
  EXPECT_LT(worst, 1e-6);
}

// Faster sines need steps short enough to sample them: the error goes as (w h)^6 / 200. At 2
// rad/s the default max_step (0.2 s, w h = 0.4) leaves 3e-5; steps the solver takes for a
// model that follows the sine itself, or max_step 0.1 s, bring it below 1e-6.
TEST(TransportDelayTest, FasterSineToOneMillionthWhereStepsSampleIt) {
  const double coarse = WorstDelayError(
      twinblocks::testing::RunModelText(SineThroughDelay(2.0, R"(rtol="1e-8")")), 2.0);
  EXPECT_GT(coarse, 1e-6);
  EXPECT_LT(coarse, 1e-4);
  const double oscillator = WorstDelayError(
      twinblocks::testing::RunModelText(OscillatorThroughDelay(2.0, R"(rtol="1e-8" atol="1e-10")")),
      2.0);
  RecordProperty("oscillator_max_abs_error", twinblocks::testing::Figure(oscillator));
  EXPECT_LT(oscillator, 1e-6);
  const double limited = WorstDelayError(
      twinblocks::testing::RunModelText(SineThroughDelay(2.0, R"(rtol="1e-8" max_step="0.1")")),
      2.0);
  RecordProperty("max_step_0.1_max_abs_error", twinblocks::testing::Figure(limited));
  EXPECT_LT(limited, 1e-6);
}

// x'(t) = -x(t - 1) with x = 1 before 0: on [0, 1] x = 1 - t, on [1, 2]
// x = -t/2 ... by the method of steps. The delay closes the loop (no algebraic loop).
TEST(TransportDelayTest, DelayedFeedbackFollowsTheMethodOfSteps) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="delayed_feedback" format="1">
  <simulation solver="ode45" t_end="2" rtol="1e-10" atol="1e-12"/>
  <block type="Integrator" name="x" x0="1"/>
  <block type="TransportDelay" name="delay" delay="1" initial_output="1"/>
  <block type="Gain" name="minus" k="-1"/>
  <connect from="x.y" to="delay.u"/>
  <connect from="delay.y" to="minus.u"/>
  <connect from="minus.y" to="x.u"/>
  <log signal="x.y" as="x"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> x = twinblocks::testing::Column(out.recording, "x");
  ASSERT_EQ(t.back(), 2.0);
  bool landed_on_start = false;
  for (size_t k = 0; k < t.size(); ++k) {
    // x' = -1 on [0, 1]; x' = -(1 - (t - 1)) on [1, 2].
    const double s = t[k] - 1.0;
    const double expected = t[k] <= 1.0 ? 1.0 - t[k] : -s + 0.5 * s * s;
    EXPECT_NEAR(x[k], expected, 1e-9) << t[k];
    landed_on_start = landed_on_start || t[k] == 1.0;
  }
  EXPECT_TRUE(landed_on_start);  // t0 + delay is a breakpoint
}

TEST(TransportDelayTest, InitialOutputUntilTheStartThenTheDelayedInput) {
  BlockHarness h("TransportDelay", {{"delay", "0.3"}, {"initial_output", "7"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize(0.0);
  auto u = [](double t) { return 2.0 + t * t; };  // a quadratic: read exactly
  for (double t : {0.0, 0.1, 0.25}) {
    h.SetInput(0, {u(t)});
    h.MajorStep(t);
    EXPECT_EQ(h.Out(), 7.0) << t;
    EXPECT_EQ(h.NextBreakpoint(t), 0.3);
  }
  h.MinorOutputs(0.3);  // the end of the step that lands on the start: still before it
  EXPECT_EQ(h.Out(), 7.0);
  h.SetInput(0, {u(0.3)});
  h.MajorStep(0.3);
  EXPECT_EQ(h.Out(), u(0.0));
  EXPECT_EQ(h.NextBreakpoint(0.3), std::numeric_limits<double>::infinity());
  h.MinorOutputs(0.45);
  EXPECT_NEAR(h.Out(), u(0.15), 1e-14);
  for (double t : {0.5, 0.52, 0.7}) {
    h.SetInput(0, {u(t)});
    h.MajorStep(t);
    EXPECT_NEAR(h.Out(), u(t - 0.3), 1e-14) << t;
  }
}

TEST(TransportDelayTest, AZeroDelayIsAWire) {
  BlockHarness h("TransportDelay", {{"delay", "0"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  EXPECT_EQ(h.block().num_dwork(), 0);
  h.Initialize();
  h.SetInput(0, {1.5, -2.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ::testing::ElementsAre(1.5, -2.0));
}

TEST(TransportDelayTest, AVectorInitialOutputWidensAScalarInput) {
  BlockHarness h("TransportDelay", {{"delay", "1"}, {"initial_output", "[1, 2]"}}, {1});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize();
  h.SetInput(0, {5.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ::testing::ElementsAre(1.0, 2.0));
  h.MajorStep(1.0);
  EXPECT_THAT(h.Output(), ::testing::ElementsAre(5.0, 5.0));
}

// buffer_size 6 samples against a delay of 1 s at steps of at most 0.05 s: the run stops at
// the seventh major step and says when, which block, and what to raise.
TEST(TransportDelayTest, AHistoryTooShortForTheDelayEndsTheRunSayingWhatToRaise) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="short_history" format="1">
  <simulation solver="ode45" t_end="2" max_step="0.05"/>
  <block type="Sine" name="u"/>
  <block type="TransportDelay" name="delay" delay="1" buffer_size="6"/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="delay.u"/>
  <connect from="delay.y" to="x.u"/>
  <log signal="delay.y" as="y"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_FALSE(out.outcome.ok);
  EXPECT_THAT(out.outcome.error, HasSubstr("simulation failed at t = "));
  EXPECT_THAT(out.outcome.error, HasSubstr("block 'delay' (TransportDelay)"));
  EXPECT_THAT(out.outcome.error, HasSubstr("buffer_size = 6 samples is full"));
  EXPECT_THAT(out.outcome.error, HasSubstr("raise buffer_size to about"));
  EXPECT_LT(out.outcome.t, 1.0);
}

TEST(TransportDelayTest, AllocatesNothingWhileStepping) {
  BlockHarness h("TransportDelay", {{"delay", "0.25"}, {"buffer_size", "64"}}, {3});
  h.Initialize();
  std::vector<double> u(3);
  const long allocations = testing::AllocationsWhileStepping(h, 500, 0.01, [&](double t) {
    for (int i = 0; i < 3; ++i) u[i] = std::sin(t + i);
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
  EXPECT_NEAR(h.Out(), std::sin(4.995 - 0.25), 1e-9);  // round the ring many times
}

}  // namespace
}  // namespace twinblocks::blocks
