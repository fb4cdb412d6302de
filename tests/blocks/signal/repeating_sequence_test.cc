#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The defaults: a sawtooth y = t mod 2 (Simulink's default waveform).
TEST(RepeatingSequenceTest, DefaultIsASawtoothOfPeriodTwo) {
  BlockHarness h("RepeatingSequence", {}, {});
  h.Initialize(0.0);
  for (double t : {0.0, 0.5, 1.999, 2.0, 3.25, 7.5}) {
    h.MajorStep(t);
    EXPECT_NEAR(h.Out(), std::fmod(t, 2.0), 1e-12) << t;
  }
}

// A triangle through (1, 0), (2, 2), (4, 0): period 3 s from t = 1, repeating before it too;
// its kinks and period ends are the breakpoints.
TEST(RepeatingSequenceTest, InterpolatesOnePeriodAndRepeatsIt) {
  BlockHarness h("RepeatingSequence", {{"time", "[1, 2, 4]"}, {"values", "[0, 2, 0]"}}, {});
  h.Initialize(0.0);
  auto closed_form = [](double t) {
    const double tau = std::fmod(std::fmod(t - 1.0, 3.0) + 3.0, 3.0);  // into [0, 3)
    return tau <= 1.0 ? 2.0 * tau : 2.0 - (tau - 1.0);
  };
  for (double t : {0.0, 0.4, 1.0, 1.5, 2.0, 3.0, 4.0, 5.5, 10.1}) {
    h.MajorStep(t);
    EXPECT_NEAR(h.Out(), closed_form(t), 1e-12) << t;
  }
  std::vector<double> stops;
  double t = 0.0;
  for (int i = 0; i < 5; ++i) {
    t = h.NextBreakpoint(t);
    stops.push_back(t);
  }
  EXPECT_THAT(stops, ElementsAre(1.0, 2.0, 4.0, 5.0, 7.0));
}

// A stage on the end of a period extends the segment it started in (no jump inside a solver
// step); the major step there has the period's first value.
TEST(RepeatingSequenceTest, PeriodEndJumpsOnlyAtTheMajorStep) {
  BlockHarness h("RepeatingSequence", {{"time", "[0, 0.5]"}, {"values", "[1, 3]"}}, {});
  h.Initialize(0.0);
  h.MajorStep(0.3);
  h.MinorOutputs(0.5);
  EXPECT_NEAR(h.Out(), 3.0, 1e-12);
  h.MajorStep(0.5);
  EXPECT_EQ(h.Out(), 1.0);
}

// In a run with a variable-step solver, the logged values sit on the closed form: the solver
// lands on every kink and jump.
TEST(RepeatingSequenceTest, RunLandsOnEveryPoint) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(R"(<model name="rs" format="1">
  <simulation solver="ode45" t_end="3"/>
  <block type="RepeatingSequence" name="r" time="[0, 0.25, 0.75]" values="[0, 1, -1]"/>
  <block type="Integrator" name="i"/>
  <connect from="r.y" to="i.u"/>
  <log signal="r.y" as="r"/>
  <log signal="i.y" as="area"/>
</model>)");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  for (double stop : {0.25, 0.75, 1.0, 1.5, 2.25}) {
    EXPECT_NE(std::find(t.begin(), t.end(), stop), t.end()) << stop;
  }
  // One period integrates to 0.125 (the rising segment; the falling one is symmetric about 0):
  // four periods give 0.5.
  EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 0.5, 1e-9);
}

TEST(RepeatingSequenceTest, BadParametersNameThemselves) {
  EXPECT_THAT(
      testing::CatchBlockError([] {
        testing::MakeBlock("RepeatingSequence", {{"time", "[0, 1, 1]"}, {"values", "[0, 1, 2]"}});
      }).what(),
      HasSubstr("parameter 'time' must increase strictly"));
  EXPECT_EQ(
      testing::CatchBlockError([] {
        testing::MakeBlock("RepeatingSequence", {{"time", "[0, 1]"}, {"values", "[0, 1, 2]"}});
      }).param(),
      "values");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("RepeatingSequence", {{"time", "1"}, {"values", "1"}});
            }).param(),
            "time");
}

}  // namespace
}  // namespace twinblocks::blocks
