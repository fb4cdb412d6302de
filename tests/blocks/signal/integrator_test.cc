#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(IntegratorTest, StateOutputAndDerivative) {
  BlockHarness h("Integrator", {{"x0", "[1, 2]"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  ASSERT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.SetInput(0, {3});  // a scalar u drives both elements
  EXPECT_THAT(h.Derivatives(), ElementsAre(3.0, 3.0));
  h.SetState({1.5, 2.5});
  h.MinorOutputs(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(1.5, 2.5));
}

TEST(IntegratorTest, WidthErrors) {
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("Integrator", {{"x0", "[0, 0, 0]"}}, {2});
  });
  EXPECT_EQ(e.param(), "x0");
  EXPECT_EQ(e.port(), "u");
  EXPECT_EQ(testing::MakeBlock("Integrator", {{"x0", "[0, 0, 0]"}})->DefaultInputWidth(), 3);
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("Integrator", {{"reset", "rising"}}, {2, 3});
            }).port(),
            "reset");
}

TEST(IntegratorTest, RisingResetAtMajorStep) {
  BlockHarness h("Integrator", {{"x0", "5"}, {"reset", "rising"}}, {1, 1});
  EXPECT_EQ(h.block().input_port(1).name, "reset");
  EXPECT_EQ(h.block().input_port(1).feedthrough, kFeedthrough);
  h.Initialize();
  h.SetInputs({1, -1});
  EXPECT_FALSE(h.MajorStep(0.0));
  h.SetState({7.0});
  EXPECT_EQ(h.ZeroCrossings().back(), -1.0);  // the reset signal itself
  h.SetInputs({1, 0});                        // -1 -> 0 is a rising edge
  h.MinorOutputs(0.5);                        // no reset inside a step
  EXPECT_EQ(h.Out(), 7.0);
  EXPECT_TRUE(h.MajorStep(0.5));
  EXPECT_EQ(h.Out(), 5.0);
  EXPECT_EQ(h.x()[0], 5.0);
  h.SetInputs({1, 0.5});  // 0 -> 0.5 is another rising edge by Simulink's rule
  h.SetState({6.0});
  EXPECT_TRUE(h.MajorStep(0.6));
  EXPECT_EQ(h.Out(), 5.0);
  h.SetState({6.0});
  h.SetInputs({1, 2});  // staying positive: no edge
  EXPECT_FALSE(h.MajorStep(0.7));
  EXPECT_EQ(h.Out(), 6.0);
}

TEST(IntegratorTest, FallingEitherAndLevelResets) {
  BlockHarness f("Integrator", {{"reset", "falling"}}, {1, 1});
  f.Initialize();
  f.SetInputs({0, 1});
  f.MajorStep(0.0);
  f.SetState({3.0});
  f.SetInputs({0, -1});
  EXPECT_TRUE(f.MajorStep(0.1));
  EXPECT_EQ(f.Out(), 0.0);

  BlockHarness e("Integrator", {{"reset", "either"}}, {1, 1});
  e.Initialize();
  e.SetInputs({0, 1});
  e.MajorStep(0.0);
  e.SetState({3.0});
  e.SetInputs({0, -1});
  EXPECT_TRUE(e.MajorStep(0.1));
  e.SetState({3.0});
  e.SetInputs({0, 1});
  EXPECT_TRUE(e.MajorStep(0.2));

  BlockHarness l("Integrator", {{"reset", "level"}, {"x0", "2"}}, {1, 1});
  l.Initialize();
  l.SetInputs({4, 1});
  l.MajorStep(0.0);
  EXPECT_EQ(l.Out(), 2.0);
  EXPECT_THAT(l.Derivatives(), ElementsAre(0.0));  // held while the level is on
  l.SetInputs({4, 0});
  l.MajorStep(0.1);
  EXPECT_THAT(l.Derivatives(), ElementsAre(4.0));
}

TEST(IntegratorTest, UpperLimitHoldsAndReleases) {
  BlockHarness h("Integrator", {{"lower", "-1"}, {"upper", "1"}}, {1});
  EXPECT_TRUE(h.block().has_update());
  h.Initialize();
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(2.0));
  h.SetState({0.5});
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.5, -0.5, 1.0));
  // The solver overshoots a little: the major step clamps and restarts.
  h.SetState({1.01});
  h.MinorOutputs(0.5);
  EXPECT_GT(h.ZeroCrossings()[1], 0.0);  // x - upper changed sign
  EXPECT_TRUE(h.MajorStep(0.5));
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_EQ(h.modes()[0], 1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0));  // held while u pushes outward
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 1.0, 2.0));
  h.SetInput(0, {-3});  // u turns inward: its zero crossing fires, the next major step frees
  EXPECT_LT(h.ZeroCrossings()[2], 0.0);
  h.MajorStep(0.6);
  EXPECT_EQ(h.modes()[0], 0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(-3.0));
}

TEST(IntegratorTest, LowerLimitClampsX0) {
  BlockHarness h("Integrator", {{"x0", "-5"}, {"lower", "-2"}}, {1});
  h.Initialize();
  h.SetInput(0, {-1});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), -2.0);
  EXPECT_EQ(h.modes()[0], -1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0));
}

TEST(IntegratorTest, StatePortAndExternalX0) {
  BlockHarness h("Integrator",
                 {{"reset", "rising"}, {"x0_source", "external"}, {"state_port", "true"}},
                 {1, 1, 1});
  const Block& b = h.block();
  ASSERT_EQ(b.num_stages(), 2);
  const int y = b.FindOutput("y");
  const int state = b.FindOutput("state");
  ASSERT_GE(state, 0);
  EXPECT_EQ(b.output_port(state).stage, 0);
  EXPECT_EQ(b.output_port(y).stage, 1);
  EXPECT_EQ(b.input_port(b.FindInput("u")).feedthrough, kNoFeedthrough);
  EXPECT_EQ(b.input_port(b.FindInput("reset")).feedthrough, FeedthroughToStage(1));
  EXPECT_EQ(b.input_port(b.FindInput("x0")).feedthrough, FeedthroughToStage(1));

  h.Initialize();
  h.SetInput("u", {1});
  h.SetInput("reset", {-1});
  h.SetInput("x0", {3});
  h.MajorStep(0.0);  // the external x0 is read at the first major step
  EXPECT_THAT(h.Output("y"), ElementsAre(3.0));
  EXPECT_THAT(h.Output("state"), ElementsAre(0.0));
  h.SetState({3.5});
  h.SetInput("reset", {1});
  h.SetInput("x0", {-1});
  EXPECT_TRUE(h.MajorStep(0.5));
  EXPECT_THAT(h.Output("state"), ElementsAre(3.5));  // before the reset
  EXPECT_THAT(h.Output("y"), ElementsAre(-1.0));
}

}  // namespace
}  // namespace twinblocks::blocks
