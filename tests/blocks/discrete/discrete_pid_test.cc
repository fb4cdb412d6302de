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

TEST(DiscretePidTest, FirstSamplesByHand) {
  // Kp = 2, Ki = 4, Kd = 0.1, Ts = 0.5:
  // u[k] = 2 e[k] + I[k] + 0.2 (e[k] - e[k-1]),  I[k+1] = I[k] + 2 e[k].
  BlockHarness h("DiscretePID", {{"Kp", "2"}, {"Ki", "4"}, {"Kd", "0.1"}, {"Ts", "0.5"}}, {1});
  h.Initialize();
  const std::vector<double> e = {1.0, 3.0, -1.0};
  std::vector<double> u;
  for (int k = 0; k < 3; ++k) {
    h.SetInput(0, {e[k]});
    h.MajorStep(0.5 * k);
    u.push_back(h.Out());
  }
  // k=0: 2 + 0 + 0.2*1 = 2.2; I=2.  k=1: 6 + 2 + 0.2*2 = 8.4; I=8.  k=2: -2 + 8 - 0.8 = 5.2.
  EXPECT_THAT(u,
              ElementsAre(DoubleNear(2.2, 1e-12), DoubleNear(8.4, 1e-12), DoubleNear(5.2, 1e-12)));
}

TEST(DiscretePidTest, InheritedPeriodIsUsed) {
  BlockHarness::Options o;
  o.inherited_as = SampleTime::Discrete(0.25);
  BlockHarness h("DiscretePID", {{"Kp", "0"}, {"Ki", "1"}}, {1}, o);
  h.Initialize();
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(0.25);
  EXPECT_DOUBLE_EQ(h.Out(), 0.5);
}

constexpr double kPidTol = 1e-12;  // a few roundings of numbers of order 1

/// Runs a scalar DiscretePID (or DiscretePID2DOF when `inputs` has two per hit) at its Ts over
/// the inputs of each hit; returns u at each hit.
std::vector<double> RunPid(const std::string& type, const testing::ParamTexts& params,
                           const std::vector<std::vector<double>>& inputs, double ts) {
  BlockHarness h(type, params, std::vector<int>(inputs.at(0).size(), 1));
  h.Initialize();
  std::vector<double> u;
  for (size_t k = 0; k < inputs.size(); ++k) {
    h.SetInputs(inputs[k]);
    h.MajorStep(ts * static_cast<double>(k));
    u.push_back(h.Out());
  }
  return u;
}

TEST(DiscretePidTest, DefaultsGiveTheFormerResultsExactly) {
  // The recursion of the block before it had methods, limits and anti-windup, in the same
  // order of operations: the results must be the same doubles.
  const double kp = 1.3, ki = 2.7, kd = 0.011, ts = 0.01;
  std::vector<std::vector<double>> e;
  for (int k = 0; k < 200; ++k) e.push_back({std::sin(0.37 * k) + 0.1 * (k % 7)});
  const std::vector<double> u =
      RunPid("DiscretePID", {{"Kp", "1.3"}, {"Ki", "2.7"}, {"Kd", "0.011"}, {"Ts", "0.01"}}, e, ts);
  double integral = 0.0, e_prev = 0.0;
  for (size_t k = 0; k < e.size(); ++k) {
    const double ek = e[k][0];
    const double kd_ts = kd / ts;
    EXPECT_EQ(u[k], kp * ek + integral + kd_ts * (ek - e_prev)) << "hit " << k;
    integral += ki * ts * ek;
    e_prev = ek;
  }
}

TEST(DiscretePidTest, IntegratorMethodsByHand) {
  // Kp = 0, Ki Ts = 1, e = 1, 3, -1. Forward: u[k] = sum of e before k. Backward: up to and
  // with k. Trapezoidal: s[k] + e[k] / 2 with s[k+1] = s[k] + e[k].
  const std::vector<std::vector<double>> e = {{1}, {3}, {-1}};
  const testing::ParamTexts p = {{"Kp", "0"}, {"Ki", "2"}, {"Ts", "0.5"}};
  auto with = [&](const char* method) {
    testing::ParamTexts q = p;
    q["integrator_method"] = method;
    return RunPid("DiscretePID", q, e, 0.5);
  };
  EXPECT_THAT(with("forward-euler"), ElementsAre(0.0, 1.0, 4.0));
  EXPECT_THAT(with("backward-euler"), ElementsAre(1.0, 4.0, 3.0));
  EXPECT_THAT(with("trapezoidal"), ElementsAre(0.5, 2.5, 3.5));
  // Only a forward-Euler integral alone leaves e out of u.
  EXPECT_EQ(testing::MakeBlock("DiscretePID", p)->input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_EQ(testing::MakeBlock(
                "DiscretePID",
                {{"Kp", "0"}, {"Ki", "2"}, {"Ts", "0.5"}, {"integrator_method", "trapezoidal"}})
                ->input_port(0)
                .feedthrough,
            kFeedthrough);
}

TEST(DiscretePidTest, FilteredDerivativeStepResponseIsGeometric) {
  // D = Kd N / (1 + N F(z)) on a unit step, Kd = 0.2, N = 5, Ts = 0.1 (N Ts = 0.5):
  // forward Euler Kd N (1 - N Ts)^k, backward Euler Kd N / (1 + N Ts)^(k+1), trapezoidal
  // Kd N / (1 + N Ts / 2) ((1 - N Ts / 2) / (1 + N Ts / 2))^k.
  const std::vector<std::vector<double>> e(6, std::vector<double>{1.0});
  const testing::ParamTexts p = {{"Kp", "0"}, {"Kd", "0.2"}, {"N", "5"}, {"Ts", "0.1"}};
  struct Case {
    const char* method;
    double first, ratio;
  };
  for (const Case& m :
       {Case{"forward-euler", 1.0, 0.5}, Case{"backward-euler", 2.0 / 3.0, 2.0 / 3.0},
        Case{"trapezoidal", 0.8, 0.6}}) {
    SCOPED_TRACE(m.method);
    testing::ParamTexts q = p;
    q["filter_method"] = m.method;
    const std::vector<double> u = RunPid("DiscretePID", q, e, 0.1);
    for (size_t k = 0; k < u.size(); ++k) {
      EXPECT_NEAR(u[k], m.first * std::pow(m.ratio, static_cast<double>(k)), kPidTol) << k;
    }
  }
  // Backward Euler with N -> inf tends to the unfiltered backward difference (N = inf).
  std::vector<std::vector<double>> ramp;
  for (int k = 0; k < 5; ++k) ramp.push_back({0.3 * k * k});
  const std::vector<double> exact =
      RunPid("DiscretePID", {{"Kp", "0"}, {"Kd", "0.2"}, {"Ts", "0.1"}}, ramp, 0.1);
  const std::vector<double> stiff =
      RunPid("DiscretePID", {{"Kp", "0"}, {"Kd", "0.2"}, {"Ts", "0.1"}, {"N", "1e9"}}, ramp, 0.1);
  for (size_t k = 0; k < exact.size(); ++k) EXPECT_NEAR(stiff[k], exact[k], 1e-6) << k;
}

// An open-loop saturated step: e = 1 for 20 hits, then e = -1. Kp = Ki = 1, Ts = 0.1, upper
// = 1.55: v = 1 + I passes the limit at the hit k = 6 (I = 0.6).
const testing::ParamTexts kSaturatedPi = {
    {"Kp", "1"}, {"Ki", "1"}, {"Ts", "0.1"}, {"upper", "1.55"}};

/// The integrator state after `n` hits of e = 1 with anti_windup `aw` (and Kb), and u at
/// the hit after them, where e = -1.
std::pair<double, double> WindUp(const char* aw, const char* method = "forward-euler", int n = 20) {
  testing::ParamTexts p = kSaturatedPi;
  p["anti_windup"] = aw;
  p["Kb"] = "2";
  p["integrator_method"] = method;
  BlockHarness h("DiscretePID", p, {1});
  h.Initialize();
  h.SetInput(0, {1.0});
  for (int k = 0; k < n; ++k) h.MajorStep(0.1 * k);
  const double integral = h.xd()[0];
  h.SetInput(0, {-1.0});
  h.MajorStep(0.1 * n);
  return {integral, h.Out()};
}

TEST(DiscretePidTest, SaturatedStepWindsUpWithoutAntiWindup) {
  // I = 0.1 n: 2 after 20 hits; at e = -1, u = -1 + 2 = 1, still near the limit.
  const auto [integral, u] = WindUp("none");
  EXPECT_NEAR(integral, 2.0, kPidTol);
  EXPECT_NEAR(u, 1.0, kPidTol);
}

TEST(DiscretePidTest, ClampingStopsTheIntegratorAtTheFirstSaturatedHit) {
  // From k = 6 on, v = 1.6 > 1.55 with e > 0: the integral stays at 0.6, and at e = -1,
  // u = -1 + 0.6: a windup of 1.4 less than without anti-windup.
  const auto [integral, u] = WindUp("clamping");
  EXPECT_NEAR(integral, 0.6, kPidTol);
  EXPECT_NEAR(u, -0.4, kPidTol);
  // The integrator runs again at once when e turns back (no sign agreement).
  EXPECT_NEAR(WindUp("none").second - u, 1.4, kPidTol);
}

TEST(DiscretePidTest, BackCalculationConvergesGeometricallyToTheTrackingPoint) {
  // Saturated, I[k+1] = I + Ts (Ki e + Kb (1.55 - 1 - I)) = 0.8 I + 0.21, whose fixed point
  // 1.05 is where Ki e + Kb (u - v) = 0: I[k] = 1.05 - 0.45 0.8^(k - 6) for k >= 6.
  const auto [integral, u] = WindUp("back-calculation");
  const double expected = 1.05 - 0.45 * std::pow(0.8, 14);
  EXPECT_NEAR(integral, expected, kPidTol);
  EXPECT_NEAR(u, -1.0 + expected, kPidTol);
}

TEST(DiscretePidTest, ImplicitBackCalculationSolvesItsLoopExactly) {
  // Backward Euler and trapezoidal: the integrator's input g = Ki e + Kb (u - v) and v = Kp e +
  // s + a Ts g (a = 1, 1/2) hold together at each hit; s[k+1] = s[k] + Ts g.
  for (const auto& [method, a] : {std::pair{"backward-euler", 1.0}, {"trapezoidal", 0.5}}) {
    SCOPED_TRACE(method);
    testing::ParamTexts p = kSaturatedPi;
    p["anti_windup"] = "back-calculation";
    p["Kb"] = "2";
    p["integrator_method"] = method;
    BlockHarness h("DiscretePID", p, {1});
    h.Initialize();
    h.SetInput(0, {1.0});
    for (int k = 0; k < 120; ++k) {
      const double s = h.xd()[0];
      h.MajorStep(0.1 * k);
      const double g = (h.xd()[0] - s) / 0.1;
      const double v = 1.0 + s + a * 0.1 * g;
      EXPECT_NEAR(h.Out(), std::min(v, 1.55), 1e-12) << k;
      if (v > 1.55) {
        EXPECT_NEAR(g, 1.0 + 2.0 * (1.55 - v), 1e-12) << k;
      }
    }
    // The same tracking point as forward Euler, v = 2.05 where g = 0, approached by a
    // factor 0.83 (backward) or 0.82 (trapezoidal) per hit.
    EXPECT_NEAR(h.xd()[0], 1.05, 1e-8);
  }
}

TEST(DiscretePidTest, TwoDofWithUnitWeightsIsThePidOfTheError) {
  const testing::ParamTexts p = {
      {"Kp", "1.5"},  {"Ki", "3"},    {"Kd", "0.02"},  {"N", "40"},
      {"Ts", "0.01"}, {"upper", "2"}, {"lower", "-2"}, {"anti_windup", "clamping"}};
  std::vector<std::vector<double>> e, ry;
  for (int k = 0; k < 100; ++k) {
    const double r = k < 50 ? 1.0 : -0.5, y = 0.8 * std::sin(0.1 * k);
    ry.push_back({r, y});
    e.push_back({r - y});
  }
  const std::vector<double> one = RunPid("DiscretePID", p, e, 0.01);
  const std::vector<double> two = RunPid("DiscretePID2DOF", p, ry, 0.01);
  for (size_t k = 0; k < one.size(); ++k) EXPECT_NEAR(two[k], one[k], kPidTol) << k;
}

TEST(DiscretePidTest, ZeroSetPointWeightGivesNoProportionalKick) {
  // A reference step at the first hit with y = 0: b = 1 kicks u to Kp r at once; b = 0 (and
  // c = 0) leaves P and D to y, so u starts at 0 and the integral takes it up.
  const std::vector<std::vector<double>> ry(3, std::vector<double>{1.0, 0.0});
  const testing::ParamTexts p = {{"Kp", "4"}, {"Ki", "2"}, {"Kd", "0.1"}, {"Ts", "0.1"}};
  EXPECT_THAT(
      RunPid("DiscretePID2DOF", p, ry, 0.1),
      ElementsAre(DoubleNear(5.0, kPidTol), DoubleNear(4.2, kPidTol), DoubleNear(4.4, kPidTol)));
  testing::ParamTexts weighted = p;
  weighted["b"] = "0";
  weighted["c"] = "0";
  EXPECT_THAT(
      RunPid("DiscretePID2DOF", weighted, ry, 0.1),
      ElementsAre(DoubleNear(0.0, kPidTol), DoubleNear(0.2, kPidTol), DoubleNear(0.4, kPidTol)));
}

/// A unit reference step into a discrete PI (Kp = 2, Ki = 4, |u| <= 1, Ts = 0.05) around a
/// discrete integrating plant 0.05 / (z - 1) (the plant's rate is the controller's).
std::string DiscreteClosedLoop(const std::string& pid_params) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="closed_loop_windup" format="1">
  <simulation solver="ode3" step="0.05" t_end="6"/>
  <block type="Step" name="r" time="0" after="1"/>
  <block type="Sum" name="error" signs="+-"/>
  <block type="DiscretePID" name="pid" Kp="2" Ki="4" Ts="0.05" upper="1" lower="-1" )" +
         pid_params + R"(/>
  <block type="DiscreteTransferFunction" name="plant" num="0.05" den="[1, -1]" Ts="0.05"/>
  <connect from="r.y" to="error.u1"/>
  <connect from="plant.y" to="error.u2"/>
  <connect from="error.y" to="pid.e"/>
  <connect from="pid.u" to="plant.u"/>
  <log signal="plant.y" as="y"/>
  <log signal="pid.u" as="u"/>
</model>
)";
}

double DiscreteOvershoot(const std::string& pid_params) {
  const auto out = twinblocks::testing::RunModelText(DiscreteClosedLoop(pid_params));
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  double peak = 0.0;
  for (double y : twinblocks::testing::Column(out.recording, "y")) peak = std::max(peak, y);
  return peak - 1.0;
}

TEST(DiscretePidTest, ClampingAndBackCalculationCutTheOvershootInAClosedLoop) {
  const double none = DiscreteOvershoot(R"(anti_windup="none")");
  const double clamping = DiscreteOvershoot(R"(anti_windup="clamping")");
  const double back = DiscreteOvershoot(R"(anti_windup="back-calculation" Kb="4")");
  RecordProperty("overshoot_none", twinblocks::testing::Figure(none));
  RecordProperty("overshoot_clamping", twinblocks::testing::Figure(clamping));
  RecordProperty("overshoot_back_calculation", twinblocks::testing::Figure(back));
  // The saturated rise winds the integral up by about Ki times the area under e; without
  // anti-windup it has to be paid back above the reference.
  EXPECT_GT(none, 0.2);
  EXPECT_LT(clamping, 0.5 * none);
  EXPECT_LT(back, 0.5 * none);
}

TEST(DiscretePidTest, BadParametersNameTheParameter) {
  auto error = [](const std::string& type, const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock(type, p); });
  };
  const BlockError no_limits = error("DiscretePID", {{"Ki", "1"}, {"anti_windup", "clamping"}});
  EXPECT_EQ(no_limits.param(), "anti_windup");
  EXPECT_THAT(no_limits.what(), HasSubstr("needs output limits"));
  EXPECT_THAT(error("DiscretePID", {{"upper", "1"}, {"anti_windup", "back-calculation"}}).what(),
              HasSubstr("needs an integral term"));
  EXPECT_EQ(error("DiscretePID", {{"lower", "1"}, {"upper", "1"}}).param(), "lower");
  EXPECT_EQ(error("DiscretePID", {{"Kb", "-1"}}).param(), "Kb");
  EXPECT_EQ(error("DiscretePID", {{"N", "0"}}).param(), "N");
  EXPECT_EQ(error("DiscretePID", {{"filter_method", "forward-euler"}}).param(), "filter_method");
  EXPECT_NO_THROW(
      testing::MakeBlock("DiscretePID", {{"filter_method", "forward-euler"}, {"N", "100"}}));
  EXPECT_EQ(error("DiscretePID2DOF", {{"b", "inf"}}).param(), "b");
}

}  // namespace
}  // namespace twinblocks::blocks
