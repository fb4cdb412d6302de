#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const testing::ParamTexts kTable = {{"time", "[0, 1, 3]"},
                                    {"values", "[[0, 10], [2, 10], [2, -10]]"}};

testing::ParamTexts TableWith(testing::ParamTexts texts, const std::string& param,
                              const std::string& value) {
  texts[param] = value;
  return texts;
}

TEST(FromWorkspaceTest, LinearInterpolationAndHold) {
  BlockHarness h("FromWorkspace", kTable, {});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize(0.0);
  h.MajorStep(0.5);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 10.0));
  h.MinorOutputs(2.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 0.0));
  h.MajorStep(5.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -10.0));
  h.MajorStep(-1.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 10.0));
  // The ends of the data are breakpoints: the kinks where the hold begins.
  EXPECT_EQ(h.NextBreakpoint(-1.0), 0.0);
  EXPECT_EQ(h.NextBreakpoint(0.0), 3.0);
  EXPECT_TRUE(std::isinf(h.NextBreakpoint(3.0)));
}

TEST(FromWorkspaceTest, ZohHoldsEachRowUntilTheNextTime) {
  BlockHarness h("FromWorkspace", TableWith(kTable, "interpolation", "zoh"), {});
  EXPECT_FALSE(h.block().depends_on_time());
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 10.0));
  EXPECT_EQ(h.NextBreakpoint(0.0), 1.0);
  h.MinorOutputs(1.0);  // a stage on the data time keeps the previous row
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 10.0));
  h.MajorStep(1.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 10.0));
  h.MajorStep(2.999);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 10.0));
  h.MajorStep(3.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -10.0));
}

// Zero outside the data: 0 before the first time, and from the last time on (the major step
// on it has the value after the jump, as a Step's does); both ends are breakpoints.
TEST(FromWorkspaceTest, ZeroExtrapolation) {
  BlockHarness h("FromWorkspace",
                 {{"time", "[1, 2]"}, {"values", "[5, 7]"}, {"extrapolation", "zero"}}, {});
  ASSERT_EQ(h.block().output_port(0).width, 1);  // one row as long as time: one signal
  h.Initialize(0.0);
  h.MajorStep(0.5);
  EXPECT_EQ(h.Out(), 0.0);
  EXPECT_EQ(h.NextBreakpoint(0.5), 1.0);
  h.MinorOutputs(1.0);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(1.0);
  EXPECT_EQ(h.Out(), 5.0);
  h.MajorStep(1.5);
  EXPECT_EQ(h.Out(), 6.0);
  h.MinorOutputs(2.0);  // the stage on the last time: the left limit
  EXPECT_EQ(h.Out(), 7.0);
  h.MajorStep(2.0);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(9.0);
  EXPECT_EQ(h.Out(), 0.0);
}

// extrapolation=error: the run ends at the last time, that row recorded, as a failure that
// says why (FromFile's behaviour).
TEST(FromWorkspaceTest, ErrorExtrapolationEndsTheRunAtTheLastTime) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(R"(<model name="fw" format="1">
  <simulation solver="ode45" t_end="5" rtol="1e-10" atol="1e-12"/>
  <block type="FromWorkspace" name="u" time="[0, 1, 2.5]" values="[0, 1, 0]" extrapolation="error"/>
  <block type="Integrator" name="i"/>
  <connect from="u.y" to="i.u"/>
  <log signal="u.y" as="u"/>
  <log signal="i.y" as="area"/>
</model>)");
  ASSERT_FALSE(out.outcome.ok);
  EXPECT_THAT(out.outcome.error, HasSubstr("simulation failed at t = 2.5 s"));
  EXPECT_THAT(out.outcome.error, HasSubstr("the data end at t = 2.5 s"));
  EXPECT_EQ(twinblocks::testing::Times(out.recording).back(), 2.5);
  // The triangle's area, 1.25 (its interior kink is no breakpoint: the tolerances handle it).
  EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 1.25, 1e-9);
}

TEST(FromWorkspaceTest, BadTablesNameTheParameter) {
  for (const auto& [texts, param, says] :
       std::vector<std::tuple<testing::ParamTexts, std::string, std::string>>{
           {{{"time", "[0, 1, 1]"}, {"values", "[1, 2, 3]"}}, "time", "must increase strictly"},
           {{{"time", "[0, 1, 2]"}, {"values", "[[1, 2], [3, 4]]"}},
            "values",
            "'values' is 2 x 2, but 'time' has 3 times"},
           {{{"time", "[0, 1]"}, {"values", "[1, inf]"}}, "values", "must be finite"},
           {{{"time", "[0, inf]"}, {"values", "[1, 2]"}}, "time", "must be finite"}}) {
    SCOPED_TRACE(says);
    const BlockError e =
        testing::CatchBlockError([&] { testing::MakeBlock("FromWorkspace", texts); });
    EXPECT_EQ(e.param(), param);
    EXPECT_THAT(e.what(), HasSubstr(says));
  }
}

}  // namespace
}  // namespace twinblocks::blocks
