#include "blocks/lookup/prelookup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PrelookupTest, IntervalAndFractionAsSimulinkGivesThem) {
  // Simulink's example: breakpoints [0 5 10 20 50 100], u = 55 gives k = 4, f = 0.1.
  BlockHarness h("Prelookup", {{"breakpoints", "[0, 5, 10, 20, 50, 100]"}}, {4});
  h.Initialize();
  h.SetInput(0, {55.0, 5.0, -10.0, 120.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output("k"), ElementsAre(4.0, 1.0, 0.0, 4.0));
  EXPECT_THAT(h.Output("f"), ElementsAre(DoubleNear(0.1, 1e-15), 0.0, -2.0, 1.4));
  BlockHarness clip("Prelookup",
                    {{"breakpoints", "[0, 5, 10, 20, 50, 100]"}, {"extrapolation", "clip"}}, {3});
  clip.Initialize();
  clip.SetInput(0, {-10.0, 100.0, 120.0});
  clip.MajorStep(0.0);
  EXPECT_THAT(clip.Output("k"), ElementsAre(0.0, 4.0, 4.0));
  EXPECT_THAT(clip.Output("f"), ElementsAre(0.0, 1.0, 1.0));
}

TEST(InterpolationUsingPrelookupTest, TheLastBreakpointAsIndexAndBadIndices) {
  BlockHarness h("InterpolationUsingPrelookup", {{"table", "[1, 3, 7]"}}, {1, 1});
  h.Initialize();
  h.SetInputs({2.0, 0.0});  // k = n - 1, f = 0: the last breakpoint
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 7.0);
  h.SetInputs({0.0, 0.5});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 2.0);
  h.SetInputs({1.0, 1.5});  // linear extrapolation
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 9.0);
  h.SetInputs({0.5, 0.0});
  EXPECT_THAT(testing::CatchBlockError([&] { h.MajorStep(0.0); }).what(),
              HasSubstr("input 'k1' is 0.5, not an interval of dimension 1 (a whole number "
                        "from 0 to 1)"));
  h.SetInputs({3.0, 0.0});
  EXPECT_EQ(testing::CatchBlockError([&] { h.MajorStep(0.0); }).port(), "k1");
  EXPECT_THAT(testing::CatchBlockError([] {
                testing::MakeBlock("InterpolationUsingPrelookup",
                                   {{"sizes", "[2, 2]"}, {"table", "[1, 2, 3]"}});
              }).what(),
              HasSubstr("parameter 'table' has 3 values, but 'sizes' 2 x 2 asks for 4"));
}

// Three Prelookups feeding one InterpolationUsingPrelookup give what one LookupTableND gives
// on the same table, inside and outside the breakpoints, with either extrapolation.
TEST(InterpolationUsingPrelookupTest, EqualsLookupTableNDOnTheSameTable) {
  for (const std::string extrapolation : {"linear", "clip"}) {
    const std::string x1 = "[0, 0.5, 2]", x2 = "[-1, 0, 1, 3]", x3 = "[0, 1]";
    const std::string table =
        "[1, 2, 0, -1, 3, 2, 0.5, 0.5, 1, 4, 2, 2, 0, 1, 2, 3, 5, 4, 3, 2, 1, 0, -1, -2]";
    const std::string e = "extrapolation=\"" + extrapolation + "\"";
    const auto out = twinblocks::testing::RunModelText(R"(<?xml version="1.0"?>
<model name="prelookup_vs_nd" format="1">
  <simulation solver="ode4" step="0.01" t_end="3"/>
  <block type="Sine" name="s1" amplitude="1.5" frequency="2" bias="1"/>
  <block type="Sine" name="s2" amplitude="3" frequency="1.3"/>
  <block type="Ramp" name="s3" slope="0.6" initial="-0.4"/>
  <block type="Prelookup" name="p1" breakpoints=")" + x1 +
                                                       "\" " + e + R"(/>
  <block type="Prelookup" name="p2" breakpoints=")" + x2 +
                                                       "\" " + e + R"(/>
  <block type="Prelookup" name="p3" breakpoints=")" + x3 +
                                                       "\" " + e + R"(/>
  <block type="InterpolationUsingPrelookup" name="interp" sizes="[3, 4, 2]" table=")" +
                                                       table + "\" " + e + R"(/>
  <block type="LookupTableND" name="nd" sizes="[3, 4, 2]"
         breakpoints="[0, 0.5, 2, -1, 0, 1, 3, 0, 1]" table=")" +
                                                       table + "\" " + e + R"(/>
  <connect from="s1.y" to="p1.u"/>
  <connect from="s2.y" to="p2.u"/>
  <connect from="s3.y" to="p3.u"/>
  <connect from="p1.k" to="interp.k1"/>
  <connect from="p1.f" to="interp.f1"/>
  <connect from="p2.k" to="interp.k2"/>
  <connect from="p2.f" to="interp.f2"/>
  <connect from="p3.k" to="interp.k3"/>
  <connect from="p3.f" to="interp.f3"/>
  <connect from="s1.y" to="nd.u1"/>
  <connect from="s2.y" to="nd.u2"/>
  <connect from="s3.y" to="nd.u3"/>
  <log signal="interp.y" as="pair"/>
  <log signal="nd.y" as="nd"/>
</model>)");
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> pair = twinblocks::testing::Column(out.recording, "pair");
    const std::vector<double> nd = twinblocks::testing::Column(out.recording, "nd");
    ASSERT_EQ(pair.size(), nd.size());
    ASSERT_GT(pair.size(), 100u);
    for (std::size_t i = 0; i < pair.size(); ++i) {
      EXPECT_NEAR(pair[i], nd[i], 1e-14) << extrapolation << " row " << i;
    }
  }
}

}  // namespace
}  // namespace twinblocks::blocks
