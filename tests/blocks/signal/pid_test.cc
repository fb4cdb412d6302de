#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
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

TEST(PidTest, ParallelFormWithFilteredDerivative) {
  BlockHarness h("PID", {{"Kp", "2"}, {"Ki", "3"}, {"Kd", "0.5"}, {"N", "10"}}, {1});
  EXPECT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.SetState({0.2, 0.4});  // integral, filter
  h.SetInput(0, {1.0});
  h.MajorStep(0.0);
  // u = Kp e + Ki xi + Kd N (e - f)
  EXPECT_DOUBLE_EQ(h.Out(), 2.0 + 3.0 * 0.2 + 0.5 * 10.0 * (1.0 - 0.4));
  EXPECT_THAT(h.Derivatives(), ElementsAre(1.0, 10.0 * (1.0 - 0.4)));
}

TEST(PidTest, PureIntegralHasNoFeedthrough) {
  BlockHarness h("PID", {{"Kp", "0"}, {"Ki", "2"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.SetState({1.0, -1.0});
  h.MinorOutputs(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -2.0));
}

TEST(PidTest, DefaultIsProportional) {
  BlockHarness h("PID", {}, {1});
  EXPECT_EQ(h.block().num_continuous_states(), 0);
  h.Initialize();
  h.SetInput(0, {0.7});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.7);
}

TEST(PidTest, OutputLimitsHoldTheirRegionInsideSolverSteps) {
  BlockHarness h("PID", {{"Kp", "2"}, {"upper", "1"}, {"lower", "-1"}}, {1});
  EXPECT_EQ(h.block().num_modes(), 1);
  h.Initialize();
  h.SetInput(0, {1.0});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 3.0));  // v - upper, v - lower
  h.SetInput(0, {0.4});  // back inside within a step: u stays at the limit until it ends
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_LT(h.ZeroCrossings()[0], 0.0);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 0.8);
}

TEST(PidTest, ClampingStopsTheIntegralOnlyWhileItPushesPastTheLimit) {
  BlockHarness h("PID", {{"Kp", "1"}, {"Ki", "2"}, {"upper", "1"}, {"anti_windup", "clamping"}},
                 {1});
  EXPECT_EQ(h.block().num_zero_crossings(), 3);
  h.Initialize();
  h.SetState({0.5});  // Ki xi = 1
  h.SetInput(0, {1.0});
  h.MajorStep(0.0);  // v = 2 > 1, Ki e > 0: clamped
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0));
  // Clamped, only Ki e is located (its sign change ends the clamp); v's return inside is
  // taken at the next major step.
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 1.0, 2.0));
  h.SetState({1.0});
  h.SetInput(0, {-0.5});  // v = 1.5, still past the limit, but e pulls back: integrate
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.Derivatives(), ElementsAre(-0.5));
  // Free past the limit: v - upper, v - lower (no lower limit), and Ki e, which starts the
  // clamp where it turns outward.
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.5, std::numeric_limits<double>::infinity(), -1.0));
}

TEST(PidTest, BackCalculationFeedsTheSaturationBack) {
  BlockHarness h(
      "PID",
      {{"Kp", "1"}, {"Ki", "2"}, {"upper", "1"}, {"anti_windup", "back-calculation"}, {"Kb", "3"}},
      {1});
  h.Initialize();
  h.SetState({0.5});
  h.SetInput(0, {1.0});
  h.MajorStep(0.0);  // v = 2, u = 1: xi' = e + (Kb / Ki) (u - v) = 1 - 1.5
  EXPECT_THAT(h.Derivatives(), ElementsAre(-0.5));
}

/// e = 1 until t = 2, then -1, into a PI (Kp = Ki = 1) limited to u <= 1.5; u at t = 2.5.
double UAfterASaturatedStep(const std::string& anti_windup) {
  const auto out = twinblocks::testing::RunModelText(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="saturated_pi" format="1">
  <simulation solver="ode45" t_end="2.5" rtol="1e-10" atol="1e-12"/>
  <block type="Step" name="e" time="2" before="1" after="-1"/>
  <block type="PID" name="pid" Kp="1" Ki="1" upper="1.5" Kb="2" )" +
      anti_windup + R"(/>
  <connect from="e.y" to="pid.e"/>
  <log signal="pid.u" as="u"/>
</model>
)");
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  return twinblocks::testing::Column(out.recording, "u").back();
}

TEST(PidTest, SaturatedStepClosedFormsOfEachAntiWindup) {
  // v = 1 + xi reaches the limit at t = 0.5. None: xi(2) = 2, u(2.5) = -1 + 1.5. Clamping:
  // xi stays 0.5 from t = 0.5, u(2.5) = -1 + 0. Back-calculation: xi' = 2 - 2 xi from 0.5,
  // xi(2) = 1 - e^-3 / 2, then xi' = -1: u(2.5) = -1/2 - e^-3 / 2. Tolerance: the solver's.
  EXPECT_NEAR(UAfterASaturatedStep(R"(anti_windup="none")"), 0.5, 1e-7);
  EXPECT_NEAR(UAfterASaturatedStep(R"(anti_windup="clamping")"), -1.0, 1e-7);
  EXPECT_NEAR(UAfterASaturatedStep(R"(anti_windup="back-calculation")"),
              -0.5 - 0.5 * std::exp(-3.0), 1e-7);
}

/// A unit reference step into a continuous PI (Kp = 2, Ki = 4, |u| <= 1) or PID2DOF around an
/// integrating plant; returns the logged plant output and control.
twinblocks::testing::RunOutput ContinuousClosedLoop(const std::string& pid) {
  return twinblocks::testing::RunModelText(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="closed_loop_windup" format="1">
  <simulation solver="ode45" t_end="6" rtol="1e-8" atol="1e-10"/>
  <block type="Step" name="r" time="0.1" after="1"/>
  <block type="Sum" name="error" signs="+-"/>
  )" + pid +
      R"(
  <block type="Integrator" name="plant"/>
  <connect from="r.y" to="error.u1"/>
  <connect from="plant.y" to="error.u2"/>
  <connect from="pid.u" to="plant.u"/>
  <log signal="plant.y" as="y"/>
  <log signal="pid.u" as="u"/>
</model>
)");
}

double ContinuousOvershoot(const std::string& anti_windup) {
  const auto out = ContinuousClosedLoop(
      R"(<block type="PID" name="pid" Kp="2" Ki="4" upper="1" lower="-1" )" + anti_windup + R"(/>
  <connect from="error.y" to="pid.e"/>)");
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  double peak = 0.0;
  for (double y : twinblocks::testing::Column(out.recording, "y")) peak = std::max(peak, y);
  return peak - 1.0;
}

TEST(PidTest, ClampingAndBackCalculationCutTheOvershootInAClosedLoop) {
  const double none = ContinuousOvershoot(R"(anti_windup="none")");
  const double clamping = ContinuousOvershoot(R"(anti_windup="clamping")");
  const double back = ContinuousOvershoot(R"(anti_windup="back-calculation" Kb="4")");
  RecordProperty("overshoot_none", twinblocks::testing::Figure(none));
  RecordProperty("overshoot_clamping", twinblocks::testing::Figure(clamping));
  RecordProperty("overshoot_back_calculation", twinblocks::testing::Figure(back));
  EXPECT_GT(none, 0.2);
  EXPECT_LT(clamping, 0.5 * none);
  EXPECT_LT(back, 0.5 * none);
}

TEST(PidTest, ClampingAtALimitTheIntegratorPushesBackToDoesNotChatter) {
  // With a filtered derivative, v comes down to the limit while clamped and the free
  // integrator would push it straight back: a sliding mode on v = upper. It follows at the
  // solver's steps; located, each return would be a zero crossing without end.
  const std::string pid =
      R"(<block type="PID" name="pid" Kp="2" Ki="4" Kd="0.1" upper="1" lower="-1" )"
      R"(anti_windup="clamping"/>
  <connect from="error.y" to="pid.e"/>)";
  for (const char* solver : {"ode45", "ode23", "cvode-bdf", "arkode-erk", "ode23s"}) {
    SCOPED_TRACE(solver);
    const auto out =
        twinblocks::testing::RunModelText(
            R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="sliding_clamp" format="1">
  <simulation solver=")" +
            std::string(solver) + R"(" t_end="3"/>
  <block type="Step" name="r" time="0.1" after="1"/>
  <block type="Sum" name="error" signs="+-"/>
  )" + pid + R"(
  <block type="Integrator" name="plant"/>
  <connect from="r.y" to="error.u1"/>
  <connect from="plant.y" to="error.u2"/>
  <connect from="pid.u" to="plant.u"/>
  <log signal="plant.y" as="y"/>
</model>
)");
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    EXPECT_LT(out.stats.resets.zero_crossings, 20);
    EXPECT_LT(out.stats.major_steps, 2000);
    EXPECT_NEAR(twinblocks::testing::Column(out.recording, "y").back(), 1.0, 0.05);
  }
}

TEST(PidTest, TwoDofWithUnitWeightsIsThePidOfTheError) {
  const testing::ParamTexts p = {{"Kp", "2"}, {"Ki", "3"}, {"Kd", "0.5"}, {"N", "10"}};
  BlockHarness one("PID", p, {1});
  BlockHarness two("PID2DOF", p, {1, 1});
  for (BlockHarness* h : {&one, &two}) {
    h->Initialize();
    h->SetState({0.2, 0.4});
  }
  one.SetInput(0, {0.7});
  two.SetInputs({1.5, 0.8});
  one.MajorStep(0.0);
  two.MajorStep(0.0);
  EXPECT_DOUBLE_EQ(two.Out(), one.Out());
  EXPECT_THAT(two.Derivatives(), ElementsAre(DoubleNear(one.Derivatives()[0], 1e-15),
                                             DoubleNear(one.Derivatives()[1], 1e-15)));
}

TEST(PidTest, TwoDofWeightsOnlyThePAndDTerms) {
  // b = 0.5, c = 0: u = Kp (b r - y) + Ki xi + Kd N (c r - y - f); xi' = r - y.
  BlockHarness h("PID2DOF",
                 {{"Kp", "2"}, {"Ki", "3"}, {"Kd", "0.5"}, {"N", "10"}, {"b", "0.5"}, {"c", "0"}},
                 {1, 1});
  h.Initialize();
  h.SetState({0.2, 0.4});
  h.SetInputs({1.0, 0.25});
  h.MajorStep(0.0);
  EXPECT_DOUBLE_EQ(h.Out(), 2.0 * (0.5 - 0.25) + 3.0 * 0.2 + 0.5 * 10.0 * (-0.25 - 0.4));
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.75, 10.0 * (-0.25 - 0.4)));
  // With b = c = 0 and no D, r reaches u only through the integral: not direct feedthrough.
  EXPECT_EQ(testing::MakeBlock("PID2DOF", {{"b", "0"}, {"Ki", "1"}})->input_port(0).feedthrough,
            kNoFeedthrough);
  EXPECT_EQ(testing::MakeBlock("PID2DOF", {{"b", "0"}, {"Ki", "1"}})->input_port(1).feedthrough,
            kFeedthrough);
}

TEST(PidTest, ZeroSetPointWeightGivesNoProportionalKickInAClosedLoop) {
  // On the reference step, b = 1 kicks u to its limit (Kp r = 2 > 1) at once; b = 0 starts
  // from 0 and rises with the integral (and the measured output's feedback).
  for (const char* b : {"1", "0"}) {
    SCOPED_TRACE(b);
    const auto out = ContinuousClosedLoop(
        std::string(R"(<block type="PID2DOF" name="pid" Kp="2" Ki="4" upper="1" lower="-1" )"
                    R"(anti_windup="clamping" b=")") +
        b + R"("/>
  <connect from="r.y" to="pid.r"/>
  <connect from="plant.y" to="pid.y"/>)");
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = twinblocks::testing::Times(out.recording);
    const std::vector<double> u = twinblocks::testing::Column(out.recording, "u");
    double u_after_step = 0.0;  // the first row at or after the step
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] >= 0.1) {
        u_after_step = u[i];
        break;
      }
    }
    if (std::string(b) == "1") {
      EXPECT_EQ(u_after_step, 1.0);
    } else {
      EXPECT_NEAR(u_after_step, 0.0, 1e-12);
    }
  }
}

TEST(PidTest, BadParametersNameTheParameter) {
  auto error = [](const std::string& type, const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock(type, p); });
  };
  const BlockError no_limits = error("PID", {{"Ki", "1"}, {"anti_windup", "clamping"}});
  EXPECT_EQ(no_limits.param(), "anti_windup");
  EXPECT_THAT(no_limits.what(), HasSubstr("needs output limits"));
  const BlockError no_integral = error("PID", {{"upper", "1"}, {"anti_windup", "clamping"}});
  EXPECT_EQ(no_integral.param(), "anti_windup");
  EXPECT_THAT(no_integral.what(), HasSubstr("Ki != 0"));
  EXPECT_EQ(error("PID", {{"lower", "2"}, {"upper", "1"}}).param(), "lower");
  EXPECT_EQ(error("PID", {{"Kb", "inf"}}).param(), "Kb");
  EXPECT_EQ(error("PID2DOF", {{"c", "inf"}}).param(), "c");
  EXPECT_EQ(error("PID2DOF", {{"Kd", "1"}, {"N", "0"}}).param(), "N");
}

}  // namespace
}  // namespace twinblocks::blocks
