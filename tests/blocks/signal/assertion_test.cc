#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using ::testing::HasSubstr;

// Holds while the Step is 1: fails at 0.5 s, where it drops to 0 (a breakpoint the solver
// lands on). The Assertion sits in a subsystem, so that the message gives its path.
std::string AssertModel(const std::string& assertion_params) {
  return R"(<model name="assert" format="1">
  <simulation solver="ode45" t_end="2"/>
  <block type="Clock" name="clock"/>
  <block type="Integrator" name="area"/>
  <block type="Step" name="ok" time="0.5" before="[1, 1]" after="[1, 0]"/>
  <subsystem name="checks">
    <inport name="u"/>
    <block type="Assertion" name="positive" )" +
         assertion_params + R"(/>
    <connect from=".u" to="positive.u"/>
  </subsystem>
  <connect from="clock.t" to="area.u"/>
  <connect from="ok.y" to="checks.u"/>
  <log signal="area.y" as="area"/>
</model>)";
}

TEST(AssertionTest, RunFailsWhereTheInputIsZeroNamingBlockElementAndTime) {
  const twinblocks::testing::RunOutput out = twinblocks::testing::RunModelText(AssertModel(""));
  ASSERT_FALSE(out.outcome.ok);
  EXPECT_FALSE(out.outcome.stopped);
  EXPECT_EQ(out.outcome.t, 0.5);
  EXPECT_THAT(out.outcome.error,
              HasSubstr("simulation failed at t = 0.5 s: block 'checks/positive' (Assertion): "
                        "assertion failed: u[1] is 0"));
  // The results keep the failing step's row.
  EXPECT_EQ(twinblocks::testing::Times(out.recording).back(), 0.5);
  EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 0.125, 1e-9);
}

TEST(AssertionTest, DisabledAssertionChecksNothing) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(AssertModel(R"(enabled="false")"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  EXPECT_EQ(out.outcome.t, 2.0);
}

// The command line: exit status 3, the block's path and the time, results up to there written.
TEST(AssertionTest, CommandLineExitsThreeWithThePathAndTime) {
  const auto dir = twinblocks::testing::FreshDirectory("twinblocks_assert_", "cli");
  twinblocks::testing::WriteText(dir / "assert.xml", AssertModel(""));
  const twinblocks::testing::CliResult r = twinblocks::testing::RunCliWithStdout(
      "run " + (dir / "assert.xml").string() + " -q -o " + (dir / "out.csv").string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_THAT(r.text,
              HasSubstr("simulation failed at t = 0.5 s: block 'checks/positive' "
                        "(Assertion): assertion failed: u[1] is 0 (results up to t = 0.5 s"));
  EXPECT_THAT(twinblocks::testing::ReadBytes(dir / "out.csv"), HasSubstr("\n0.5,"));
}

}  // namespace
}  // namespace twinblocks::blocks
