#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using ::testing::HasSubstr;

// A Step at 0.35 s (a breakpoint the solver lands on) drives the stop: the run ends there, ok.
std::string StopModel(const std::string& simulation) {
  return R"(<model name="stop" format="1">
  )" + simulation +
         R"(
  <block type="Clock" name="clock"/>
  <block type="Integrator" name="area"/>
  <block type="Step" name="late" time="0.35"/>
  <block type="StopSimulation" name="halt"/>
  <connect from="clock.t" to="area.u"/>
  <connect from="late.y" to="halt.u"/>
  <log signal="area.y" as="area"/>
</model>)";
}

TEST(StopSimulationTest, RunEndsOkAtTheMajorStepWhereTheInputIsNonZero) {
  for (const char* solver : {"ode45", "ode4", "ode23s"}) {
    SCOPED_TRACE(solver);
    const twinblocks::testing::RunOutput out = twinblocks::testing::RunModelText(StopModel(
        std::string(R"(<simulation solver=")") + solver + R"(" step="0.01" t_end="2"/>)"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    EXPECT_TRUE(out.outcome.stopped);
    EXPECT_EQ(out.outcome.stopped_by, "halt");
    EXPECT_EQ(out.outcome.stopped_by_type, "StopSimulation");
    EXPECT_EQ(out.outcome.t, 0.35);
    // The last row is the stop's: t = 0.35, the integral of t up to there.
    EXPECT_EQ(twinblocks::testing::Times(out.recording).back(), 0.35);
    EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 0.35 * 0.35 / 2, 1e-9);
  }
}

// Between output rows (output_interval) the stop's row is recorded too.
TEST(StopSimulationTest, TheStopsRowIsRecordedBetweenOutputRows) {
  const twinblocks::testing::RunOutput out = twinblocks::testing::RunModelText(
      StopModel(R"(<simulation solver="ode45" t_end="2" output_interval="0.1"/>)"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_NEAR(t[3], 0.3, 1e-15);
  EXPECT_EQ(t[4], 0.35);
}

// A discrete stop (its rate inherited from a ZeroOrderHold at 0.1 s) ends the run at its first
// hit after the step, 0.4 s, also when the solver steps over hits that change nothing.
TEST(StopSimulationTest, DiscreteStopEndsAtItsHit) {
  for (const char* hits : {"land", "step_over"}) {
    SCOPED_TRACE(hits);
    const std::string model = R"(<model name="stop" format="1">
  <simulation solver="ode45" t_end="2" sample_hits=")" +
                              std::string(hits) + R"("/>
  <block type="Clock" name="clock"/>
  <block type="Integrator" name="area"/>
  <block type="Step" name="late" time="0.35"/>
  <block type="ZeroOrderHold" name="zoh" Ts="0.1"/>
  <block type="StopSimulation" name="halt"/>
  <connect from="clock.t" to="area.u"/>
  <connect from="late.y" to="zoh.u"/>
  <connect from="zoh.y" to="halt.u"/>
  <log signal="area.y" as="area"/>
</model>)";
    const twinblocks::testing::RunOutput out = twinblocks::testing::RunModelText(model);
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    EXPECT_TRUE(out.outcome.stopped);
    EXPECT_NEAR(out.outcome.t, 0.4, 1e-15);
    EXPECT_EQ(twinblocks::testing::Times(out.recording).back(), out.outcome.t);
    EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 0.08, 1e-9);
  }
}

// An input that never becomes non-zero never stops the run.
TEST(StopSimulationTest, ZeroInputRunsToTheEnd) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(R"(<model name="stop" format="1">
  <simulation solver="ode45" t_end="1"/>
  <block type="Constant" name="zero" value="[0, 0]"/>
  <block type="Clock" name="clock"/>
  <block type="StopSimulation" name="halt"/>
  <connect from="zero.y" to="halt.u"/>
  <log signal="clock.t" as="t"/>
</model>)");
  ASSERT_TRUE(out.outcome.ok);
  EXPECT_FALSE(out.outcome.stopped);
  EXPECT_EQ(out.outcome.t, 1.0);
}

// The command line: exit status 0, one line saying which block stopped the run and when, and
// the results up to there.
TEST(StopSimulationTest, CommandLineSaysWhoStoppedTheRunAndExitsZero) {
  const auto dir = twinblocks::testing::FreshDirectory("twinblocks_stop_", "cli");
  twinblocks::testing::WriteText(dir / "stop.xml",
                                 StopModel(R"(<simulation solver="ode45" t_end="2"/>)"));
  const twinblocks::testing::CliResult r = twinblocks::testing::RunCliWithStdout(
      "run " + (dir / "stop.xml").string() + " -q -o " + (dir / "out.csv").string());
  EXPECT_EQ(r.status, 0) << r.text;
  EXPECT_THAT(r.text, HasSubstr("stopped: at t = 0.35 s by block 'halt' (StopSimulation)"));
  EXPECT_THAT(r.text, HasSubstr("t = [0, 0.35] s"));
  const std::string csv = twinblocks::testing::ReadBytes(dir / "out.csv");
  EXPECT_THAT(csv, HasSubstr("\n0.35,"));
}

}  // namespace
}  // namespace twinblocks::blocks
