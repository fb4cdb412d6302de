// DiscreteIntegrator against hand recursions: each method, limits with the saturation port,
// each reset trigger, an external initial condition, and its bad parameters.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kIntegratorTol = 1e-12;  // a few roundings of numbers of order 1

/// Runs a scalar DiscreteIntegrator at Ts = 0.25 over `u` (and `reset`, when given) and
/// returns y at each hit.
std::vector<double> RunIntegrator(const testing::ParamTexts& params, const std::vector<double>& u,
                                  const std::vector<double>& reset = {}, const char* port = "y") {
  testing::ParamTexts p = params;
  p["Ts"] = "0.25";
  std::vector<int> widths = {1};
  if (!reset.empty()) widths.push_back(1);
  BlockHarness h("DiscreteIntegrator", p, widths);
  h.Initialize();
  std::vector<double> y;
  for (size_t k = 0; k < u.size(); ++k) {
    h.SetInput("u", {u[k]});
    if (!reset.empty()) h.SetInput("reset", {reset[k]});
    h.MajorStep(0.25 * static_cast<double>(k));
    y.push_back(h.Output(port).at(0));
  }
  return y;
}

const std::vector<double> kIntegratorInput = {1.0, 3.0, -1.0, 2.0};

TEST(DiscreteIntegratorTest, ForwardEulerByHand) {
  // K Ts = 0.5: y[0] = x0 = 1, y[k] = y[k-1] + 0.5 u[k-1].
  EXPECT_THAT(RunIntegrator({{"K", "2"}, {"x0", "1"}}, kIntegratorInput),
              ElementsAre(DoubleNear(1.0, kIntegratorTol), DoubleNear(1.5, kIntegratorTol),
                          DoubleNear(3.0, kIntegratorTol), DoubleNear(2.5, kIntegratorTol)));
}

TEST(DiscreteIntegratorTest, BackwardEulerByHand) {
  // y[0] = x0 = 1, y[k] = y[k-1] + 0.5 u[k]: 1 + 1.5, 2.5 - 0.5, 2 + 1.
  EXPECT_THAT(
      RunIntegrator({{"K", "2"}, {"x0", "1"}, {"method", "backward-euler"}}, kIntegratorInput),
      ElementsAre(DoubleNear(1.0, kIntegratorTol), DoubleNear(2.5, kIntegratorTol),
                  DoubleNear(2.0, kIntegratorTol), DoubleNear(3.0, kIntegratorTol)));
}

TEST(DiscreteIntegratorTest, TrapezoidalByHand) {
  // y[0] = x0 = 1, y[k] = y[k-1] + 0.25 (u[k] + u[k-1]): 1 + 1, 2 + 0.5, 2.5 + 0.25.
  EXPECT_THAT(RunIntegrator({{"K", "2"}, {"x0", "1"}, {"method", "trapezoidal"}}, kIntegratorInput),
              ElementsAre(DoubleNear(1.0, kIntegratorTol), DoubleNear(2.0, kIntegratorTol),
                          DoubleNear(2.5, kIntegratorTol), DoubleNear(2.75, kIntegratorTol)));
}

TEST(DiscreteIntegratorTest, OnlyForwardEulerLeavesUOutOfTheOutput) {
  EXPECT_EQ(testing::MakeBlock("DiscreteIntegrator", {})->input_port(0).feedthrough,
            kNoFeedthrough);
  for (const char* method : {"backward-euler", "trapezoidal"}) {
    EXPECT_EQ(
        testing::MakeBlock("DiscreteIntegrator", {{"method", method}})->input_port(0).feedthrough,
        kFeedthrough)
        << method;
  }
}

TEST(DiscreteIntegratorTest, LimitsClipTheStateAndTheSaturationPortSaysWhich) {
  // K Ts = 0.25 u with u = +-4: steps of +-1 between lower = -1 and upper = 2. At the upper
  // limit the state is held at 2, so the way down starts at once (no windup).
  const std::vector<double> u = {4, 4, 4, 4, -4, -4, -4, -4, -4};
  const testing::ParamTexts p = {{"lower", "-1"}, {"upper", "2"}, {"saturation_port", "true"}};
  EXPECT_THAT(RunIntegrator(p, u), ElementsAre(0, 1, 2, 2, 2, 1, 0, -1, -1));
  EXPECT_THAT(RunIntegrator(p, u, {}, "sat"), ElementsAre(0, 0, 1, 1, 1, 0, 0, -1, -1));
  // Backward Euler clips y[k] = y[k-1] + u[k] / 4 the same way, one hit earlier.
  testing::ParamTexts be = p;
  be["method"] = "backward-euler";
  EXPECT_THAT(RunIntegrator(be, u), ElementsAre(0, 1, 2, 2, 1, 0, -1, -1, -1));
  // Trapezoidal: y[k] = clip(s[k] + u[k] / 8), s[k+1] = clip(y[k] + u[k] / 8).
  testing::ParamTexts tr = p;
  tr["method"] = "trapezoidal";
  EXPECT_THAT(RunIntegrator(tr, u), ElementsAre(0, 1, 2, 2, 1.5, 0.5, -0.5, -1, -1));
  // x0 outside the limits starts clipped.
  EXPECT_EQ(RunIntegrator({{"x0", "5"}, {"upper", "2"}}, {0.0}).at(0), 2.0);
}

TEST(DiscreteIntegratorTest, EachResetTriggerRestartsAtX0) {
  // Forward Euler, K Ts = 0.25, u = 4: y grows by 1 per hit, and starts again at x0 = 0.5.
  const std::vector<double> u(6, 4.0);
  const std::vector<double> r = {0, 1, 1, 0, -1, 0};
  const testing::ParamTexts p = {{"x0", "0.5"}};
  auto with = [&](const char* trigger) {
    testing::ParamTexts q = p;
    q["reset"] = trigger;
    return RunIntegrator(q, u, r);
  };
  // Rising at k = 1 (0 -> 1) and k = 5 (-1 -> 0); falling at k = 3 (1 -> 0) and 4 (0 -> -1).
  EXPECT_THAT(with("rising"), ElementsAre(0.5, 0.5, 1.5, 2.5, 3.5, 0.5));
  EXPECT_THAT(with("falling"), ElementsAre(0.5, 1.5, 2.5, 0.5, 0.5, 1.5));
  EXPECT_THAT(with("either"), ElementsAre(0.5, 0.5, 1.5, 0.5, 0.5, 0.5));
  // Level: while r != 0 and at the hit where it returns to 0 (k = 3 and k = 5).
  EXPECT_THAT(with("level"), ElementsAre(0.5, 0.5, 0.5, 0.5, 0.5, 0.5));
  EXPECT_THAT(RunIntegrator({{"x0", "0.5"}, {"reset", "level"}}, u, {0, 1, 0, 0, 0, 0}),
              ElementsAre(0.5, 0.5, 0.5, 1.5, 2.5, 3.5));
}

TEST(DiscreteIntegratorTest, AResetRestartsEachMethodAsItsFirstHit) {
  // A rising reset at k = 2 with u = {1, 3, -1, 2}, K Ts = 0.5, x0 = 1: from there y is
  // what each method gives from a first hit at k = 2 (see the tests above).
  const std::vector<double> r = {0, 0, 1, 1};
  const testing::ParamTexts p = {{"K", "2"}, {"x0", "1"}, {"reset", "rising"}};
  // Forward: y[3] = 1 + 0.5 u[2]. Backward: y[3] = 1 + 0.5 u[3]. Trapezoidal: 1 + 0.25 (u[2]
  // + u[3]).
  EXPECT_THAT(RunIntegrator(p, kIntegratorInput, r), ElementsAre(1.0, 1.5, 1.0, 0.5));
  testing::ParamTexts be = p;
  be["method"] = "backward-euler";
  EXPECT_THAT(RunIntegrator(be, kIntegratorInput, r), ElementsAre(1.0, 2.5, 1.0, 2.0));
  testing::ParamTexts tr = p;
  tr["method"] = "trapezoidal";
  EXPECT_THAT(RunIntegrator(tr, kIntegratorInput, r), ElementsAre(1.0, 2.0, 1.0, 1.25));
}

TEST(DiscreteIntegratorTest, ExternalInitialConditionIsReadAtTheStartAndAtResets) {
  BlockHarness h("DiscreteIntegrator",
                 {{"x0_source", "external"}, {"reset", "rising"}, {"Ts", "1"}, {"K", "0.5"}},
                 {1, 1, 1});
  ASSERT_EQ(h.block().num_inputs(), 3);
  EXPECT_EQ(h.block().input_port(2).name, "x0");
  h.Initialize();
  const std::vector<double> x0 = {3, 7, 7, -2, -2};
  const std::vector<double> reset = {0, 0, 0, 1, 1};
  std::vector<double> y;
  for (int k = 0; k < 5; ++k) {
    h.SetInputs({2.0, reset[k], x0[k]});  // u, reset, x0
    h.MajorStep(k);
    y.push_back(h.Out());
  }
  // 3 at the start (not 7 later), +1 per hit, -2 at the reset.
  EXPECT_THAT(y, ElementsAre(3, 4, 5, -2, -1));
}

TEST(DiscreteIntegratorTest, VectorStateFromX0AndInheritedPeriod) {
  BlockHarness::Options o;
  o.inherited_as = SampleTime::Discrete(0.5);
  BlockHarness h("DiscreteIntegrator", {{"x0", "[1, 2]"}}, {1}, o);
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize();
  h.SetInput(0, {2.0});
  h.MajorStep(0.0);
  h.MajorStep(0.5);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 3.0));  // + K Ts u = 0.5 * 2
}

TEST(DiscreteIntegratorTest, BadParametersNameTheParameter) {
  auto param_of = [](const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock("DiscreteIntegrator", p); });
  };
  const BlockError limits = param_of({{"lower", "2"}, {"upper", "1"}});
  EXPECT_EQ(limits.param(), "lower");
  EXPECT_THAT(limits.what(), HasSubstr("at most 'upper'"));
  EXPECT_EQ(param_of({{"K", "inf"}}).param(), "K");
  EXPECT_EQ(param_of({{"Ts", "0"}}).param(), "Ts");
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("DiscreteIntegrator", {{"x0", "[1, 2]"}, {"Ts", "1"}}, {3});
            }).param(),
            "x0");
}

}  // namespace
}  // namespace twinblocks::blocks
