#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(SecondOrderIntegratorTest, StatesOutputsAndDerivatives) {
  BlockHarness h("SecondOrderIntegrator", {{"x0", "[1, 2]"}, {"dx0", "3"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  ASSERT_EQ(h.block().num_continuous_states(), 4);  // x (2), then dx (2)
  EXPECT_FALSE(h.block().has_update());             // nothing limited: no modes to choose
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output("x"), ElementsAre(1.0, 2.0));
  EXPECT_THAT(h.Output("dx"), ElementsAre(3.0, 3.0));
  h.SetInput(0, {-4});  // a scalar u drives both elements
  EXPECT_THAT(h.Derivatives(), ElementsAre(3.0, 3.0, -4.0, -4.0));
  h.SetState({1.5, 2.5, 0.5, -0.5});
  h.MinorOutputs(0.1);
  EXPECT_THAT(h.Output("x"), ElementsAre(1.5, 2.5));
  EXPECT_THAT(h.Output("dx"), ElementsAre(0.5, -0.5));
}

TEST(SecondOrderIntegratorTest, ParameterErrorsNameTheParameter) {
  auto param_of = [](const testing::ParamTexts& texts, std::vector<int> widths = {1}) {
    return testing::CatchBlockError([&] { BlockHarness h("SecondOrderIntegrator", texts, widths); })
        .param();
  };
  EXPECT_EQ(param_of({{"lower", "1"}, {"upper", "0"}}), "lower");
  EXPECT_EQ(param_of({{"lower_dx", "1"}, {"upper_dx", "0"}}), "lower_dx");
  // x limited: x stops with dx = 0, which the dx limits must allow.
  EXPECT_EQ(param_of({{"lower", "0"}, {"lower_dx", "0.5"}}), "lower_dx");
  EXPECT_EQ(param_of({{"upper", "0"}, {"upper_dx", "-0.5"}}), "upper_dx");
  EXPECT_EQ(param_of({{"lower_dx", "0.5"}}), "");             // x free: any dx limits
  EXPECT_EQ(param_of({{"reinit_dx", "true"}}), "reinit_dx");  // reinit needs an x limit
  EXPECT_EQ(param_of({{"min_flight", "-1"}}), "min_flight");
  EXPECT_EQ(param_of({{"x0", "[0, 0]"}, {"dx0", "[0, 0, 0]"}}), "dx0");
  const BlockError wide = testing::CatchBlockError([] {
    BlockHarness h("SecondOrderIntegrator", {{"x0", "[0, 0, 0]"}}, {2});
  });
  EXPECT_EQ(wide.param(), "x0");
  EXPECT_EQ(wide.port(), "u");
  EXPECT_EQ(
      testing::CatchBlockError([] {
        BlockHarness h("SecondOrderIntegrator", {{"lower", "0"}, {"reinit_dx", "true"}}, {2, 3});
      }).port(),
      "dx_reinit");
}

// Without reinit, an impact on a limit stops dx there; x is held while u pushes outward and
// leaves when u turns.
TEST(SecondOrderIntegratorTest, ImpactStopsAndHoldsUntilUTurns) {
  BlockHarness h("SecondOrderIntegrator", {{"x0", "0.5"}, {"dx0", "2"}, {"upper", "1"}}, {1});
  EXPECT_TRUE(h.block().has_update());
  h.Initialize();
  h.SetInput(0, {1});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(2.0, 1.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(kInf, -0.5, 1.0));
  // The solver steps a little past the limit: the major step clamps, stops dx and holds.
  h.SetState({1.01, 2.2});
  h.MinorOutputs(0.25);
  EXPECT_GT(h.ZeroCrossings()[1], 0.0);  // x - upper changed sign
  EXPECT_TRUE(h.MajorStep(0.25));
  EXPECT_EQ(h.x()[0], 1.0);
  EXPECT_EQ(h.x()[1], 0.0);
  EXPECT_EQ(h.modes()[0], 1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0, 0.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 1.0, 1.0));  // watches u
  h.SetInput(0, {-3});
  EXPECT_LT(h.ZeroCrossings()[2], 0.0);
  EXPECT_FALSE(h.MajorStep(0.3));  // freed without a jump: x and dx are where they were
  EXPECT_EQ(h.modes()[0], 0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0, -3.0));
}

// With reinit, an impact takes dx_reinit's value when it points back inside (a bounce), and
// reads it after the outputs: the row at the impact shows dx before it.
TEST(SecondOrderIntegratorTest, ReinitBouncesOffTheLimit) {
  BlockHarness h("SecondOrderIntegrator", {{"x0", "1"}, {"lower", "0"}, {"reinit_dx", "true"}},
                 {1, 1});
  EXPECT_EQ(h.block().input_port(1).feedthrough, kNoFeedthrough);
  h.Initialize();
  h.SetInputs({-9.81, 0.0});
  h.MajorStep(0.0);
  h.SetState({-1e-12, -4.0});
  h.SetInputs({-9.81, 3.2});  // -0.8 dx
  EXPECT_TRUE(h.MajorStep(0.45));
  EXPECT_EQ(h.Out(1), -4.0);  // the outputs before the bounce
  EXPECT_EQ(h.x()[0], 0.0);
  EXPECT_EQ(h.x()[1], 3.2);
  EXPECT_EQ(h.modes()[0], 0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(3.2, -9.81));
  // A dx_reinit that points outward cannot leave: x stops on the limit and is held.
  h.SetState({0.0, -1.0});
  h.SetInputs({-9.81, -0.5});
  h.MajorStep(0.9);
  EXPECT_EQ(h.x()[1], 0.0);
  EXPECT_EQ(h.modes()[0], -1);
}

// A bounce shorter than the clock resolves, or than min_flight, is not begun: x rests on the
// limit. Longer ones go on.
TEST(SecondOrderIntegratorTest, BouncesTooShortToResolveComeToRest) {
  auto bounce = [](const char* min_flight, double t, double v_reinit) {
    BlockHarness h("SecondOrderIntegrator",
                   {{"x0", "1"}, {"lower", "0"}, {"reinit_dx", "true"}, {"min_flight", min_flight}},
                   {1, 1});
    h.Initialize();
    h.SetInputs({-10.0, 0.0});
    h.MajorStep(0.0);
    h.SetState({0.0, -2.0 * v_reinit});
    h.SetInputs({-10.0, v_reinit});
    h.MajorStep(t);
    return std::vector<double>{h.x()[1], static_cast<double>(h.modes()[0])};
  };
  // Flights of 2 v / 10: 2e-3 s, 2e-11 s and 2e-13 s.
  EXPECT_THAT(bounce("0", 1.0, 1e-2), ElementsAre(1e-2, 0.0));
  EXPECT_THAT(bounce("0", 1.0, 1e-10), ElementsAre(1e-10, 0.0));
  EXPECT_THAT(bounce("0", 1.0, 1e-12), ElementsAre(0.0, -1.0));  // 1024 eps = 2.3e-13 s
  EXPECT_THAT(bounce("0", 1e4, 1e-10), ElementsAre(0.0, -1.0));  // 1024 eps 1e4 = 2.3e-9 s
  EXPECT_THAT(bounce("1e-2", 1.0, 1e-2), ElementsAre(0.0, -1.0));
}

TEST(SecondOrderIntegratorTest, VelocityLimitHoldsDxWhileXMovesOn) {
  BlockHarness h("SecondOrderIntegrator", {{"upper_dx", "2"}}, {1});
  h.Initialize();
  h.SetInput(0, {5});
  h.MajorStep(0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(kInf, -2.0, 1.0));
  h.SetState({0.2, 2.001});
  EXPECT_TRUE(h.MajorStep(0.4));
  EXPECT_EQ(h.x()[1], 2.0);
  EXPECT_EQ(h.modes()[0], 1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(2.0, 0.0));  // x' = dx goes on, dx' = 0
  h.SetInput(0, {-1});
  h.MajorStep(0.5);
  EXPECT_EQ(h.modes()[0], 0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(2.0, -1.0));
}

// External initial conditions are read at the first major step; a reset sets both states
// back to them and shows them in the outputs at once.
TEST(SecondOrderIntegratorTest, ExternalInitialConditionsAndRisingReset) {
  BlockHarness h("SecondOrderIntegrator",
                 {{"reset", "rising"}, {"x0_source", "external"}, {"dx0_source", "external"}},
                 {1, 1, 1, 1});
  EXPECT_EQ(h.block().input_port(h.block().FindInput("reset")).feedthrough, kFeedthrough);
  EXPECT_EQ(h.block().input_port(h.block().FindInput("x0")).feedthrough, kFeedthrough);
  h.Initialize();
  h.SetInput("u", {1.0});
  h.SetInput("reset", {-1.0});
  h.SetInput("x0", {2.0});
  h.SetInput("dx0", {-3.0});
  EXPECT_TRUE(h.MajorStep(0.0));
  EXPECT_EQ(h.Out(0), 2.0);
  EXPECT_EQ(h.Out(1), -3.0);
  h.SetState({5.0, 7.0});
  h.SetInput("x0", {0.5});
  h.SetInput("dx0", {0.25});
  EXPECT_FALSE(h.MajorStep(1.0));  // reset still below 0: no edge
  EXPECT_EQ(h.Out(0), 5.0);
  h.SetInput("reset", {1.0});
  EXPECT_GT(h.ZeroCrossings().back(), 0.0);  // the reset input is a zero-crossing function
  EXPECT_TRUE(h.MajorStep(2.0));
  EXPECT_EQ(h.Out(0), 0.5);
  EXPECT_EQ(h.Out(1), 0.25);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.25, 1.0));
}

TEST(SecondOrderIntegratorTest, LevelResetHoldsBothStates) {
  BlockHarness h("SecondOrderIntegrator", {{"x0", "1"}, {"dx0", "2"}, {"reset", "level"}}, {1, 1});
  h.Initialize();
  h.SetInputs({4.0, 1.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0, 0.0));
  h.SetInputs({4.0, 0.0});
  h.MajorStep(0.1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(2.0, 4.0));
}

TEST(SecondOrderIntegratorTest, DocumentsItsRestingRule) {
  const BlockType& t = testing::TypeOf("SecondOrderIntegrator");
  EXPECT_THAT(t.doc, HasSubstr("Zeno time"));
  EXPECT_THAT(t.reference, HasSubstr("Second-Order Integrator"));
}

}  // namespace
}  // namespace twinblocks::blocks
