#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(MultiportSwitchTest, OneBasedTruncatesTowardZero) {
  BlockHarness h("MultiportSwitch", {{"inputs", "3"}}, {1, 2, 1, 2});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize();
  h.SetInput("u1", {10, 11});
  h.SetInput("u2", {20});
  h.SetInput("u3", {30, 31});
  for (const auto& [control, want] : std::vector<std::pair<double, std::vector<double>>>{
           {1, {10, 11}}, {2.9, {20, 20}}, {3, {30, 31}}, {1.0 + 1e-12, {10, 11}}}) {
    h.SetInput("control", {control});
    h.MajorStep(0.0);
    EXPECT_EQ(h.Output(), want) << control;
  }
}

TEST(MultiportSwitchTest, ZeroBasedCountsFromZero) {
  BlockHarness h("MultiportSwitch", {{"order", "zero_based"}}, {1, 1, 1});
  h.Initialize();
  h.SetInputs({0.5, 7, 8});  // trunc(0.5) = 0 selects u1
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 7);
  h.SetInputs({1, 7, 8});
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 8);
}

TEST(MultiportSwitchTest, OutOfRangeStopsTheRunOrPassesTheDefault) {
  BlockHarness err("MultiportSwitch", {}, {1, 1, 1});
  err.Initialize();
  err.SetInputs({0.5, 7, 8});  // one-based: trunc(0.5) = 0 selects nothing
  try {
    err.MajorStep(0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("the control input is 0.5, which selects no data input "
                                    "(one-based: 1 ... 2)"));
  }
  BlockHarness last("MultiportSwitch", {{"diagnostic", "none"}}, {1, 1, 1});
  last.Initialize();
  last.SetInputs({5, 7, 8});
  last.MajorStep(0.0);
  EXPECT_EQ(last.Out(), 8);
  BlockHarness extra("MultiportSwitch", {{"diagnostic", "none"}, {"default_port", "additional"}},
                     {1, 1, 1, 1});
  extra.Initialize();
  extra.SetInputs({-3, 7, 8, 9});
  extra.MajorStep(0.0);
  EXPECT_EQ(extra.Out(), 9);
}

TEST(MultiportSwitchTest, HeldInsideStepsWithCrossingsAtTheWholeNumbers) {
  BlockHarness h("MultiportSwitch", {}, {1, 1, 1});
  h.Initialize();
  h.SetInputs({1.25, 7, 8});
  h.MajorStep(0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.25, 0.75));  // control - 1, 2 - control
  h.SetInputs({2.5, 7, 8});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 7);  // held
  EXPECT_LT(h.ZeroCrossings()[1], 0.0);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 8);
}

// y = u1 = 1 while the control t + 1 is below 2, then u2 = 3 (from t = 1) and u3 = 5 (from
// t = 2): the integral over [0, 2.5] is 1 + 3 + 2.5, exactly when the solver lands on the
// switches.
TEST(MultiportSwitchTest, SolverLandsOnEverySwitch) {
  const twinblocks::testing::RunOutput r =
      twinblocks::testing::RunModelText(R"(<?xml version="1.0"?>
<model name="switching" format="1">
  <simulation solver="ode45" t_end="2.5" rtol="1e-8" atol="1e-10"/>
  <block type="Ramp" name="control" initial="1"/>
  <block type="Constant" name="a" value="1"/>
  <block type="Constant" name="b" value="3"/>
  <block type="Constant" name="c" value="5"/>
  <block type="MultiportSwitch" name="sw" inputs="3"/>
  <block type="Integrator" name="area"/>
  <connect from="control.y" to="sw.control"/>
  <connect from="a.y" to="sw.u1"/>
  <connect from="b.y" to="sw.u2"/>
  <connect from="c.y" to="sw.u3"/>
  <connect from="sw.y" to="area.u"/>
  <log signal="area.y" as="area"/>
</model>)");
  ASSERT_TRUE(r.outcome.ok) << r.outcome.error;
  EXPECT_NEAR(twinblocks::testing::Column(r.recording, "area").back(), 6.5, 1e-9);
  EXPECT_EQ(r.stats.solver.zero_crossings, 2);
}

}  // namespace
}  // namespace twinblocks::blocks
