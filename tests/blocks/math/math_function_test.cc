#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<double> OneInput(const std::string& function, const std::vector<double>& u) {
  BlockHarness h("MathFunction", {{"function", function}}, {static_cast<int>(u.size())});
  h.SetInput(0, u);
  h.MajorStep(0.0);
  return h.Output();
}

std::vector<double> TwoInputs(const std::string& function, const std::vector<double>& u1,
                              const std::vector<double>& u2) {
  BlockHarness h("MathFunction", {{"function", function}},
                 {static_cast<int>(u1.size()), static_cast<int>(u2.size())});
  h.SetInput(0, u1);
  h.SetInput(1, u2);
  h.MajorStep(0.0);
  return h.Output();
}

TEST(MathFunctionTest, OneInputFunctionsAgainstClosedForms) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THAT(OneInput("exp", {0, 1}), ElementsAre(1, DoubleEq(M_E)));
  EXPECT_THAT(OneInput("log", {1, M_E, 0}), ElementsAre(0, DoubleEq(1), -inf));
  EXPECT_THAT(OneInput("10^u", {-1, 0, 3}), ElementsAre(DoubleEq(0.1), 1, 1000));
  EXPECT_THAT(OneInput("2^u", {-1, 10}), ElementsAre(0.5, 1024));
  EXPECT_THAT(OneInput("log10", {1000, 0.01}), ElementsAre(DoubleEq(3), DoubleEq(-2)));
  EXPECT_THAT(OneInput("magnitude^2", {-3, 2}), ElementsAre(9, 4));
  EXPECT_THAT(OneInput("square", {-3, 0.5}), ElementsAre(9, 0.25));
  EXPECT_THAT(OneInput("sqrt", {16, 0, 2}), ElementsAre(4, 0, DoubleEq(M_SQRT2)));
  EXPECT_THAT(OneInput("reciprocal", {4, -0.5, 0}), ElementsAre(0.25, -2, inf));
}

TEST(MathFunctionTest, TwoInputFunctionsAsMatlabsWithScalarExpansion) {
  EXPECT_THAT(TwoInputs("pow", {2, -2, 9}, {3, 3, 0.5}), ElementsAre(8, -8, 3));
  EXPECT_THAT(TwoInputs("hypot", {3, 1e300}, {4}), ElementsAre(5, DoubleEq(1e300)));
  // rem has the sign of u1, mod the sign of u2 (MATLAB: rem(-1, 3) = -1, mod(-1, 3) = 2,
  // mod(5, -3) = -1, mod(x, 0) = x).
  EXPECT_THAT(TwoInputs("rem", {-1, 5, 7.5}, {3, -3, 2}), ElementsAre(-1, 2, 1.5));
  EXPECT_THAT(TwoInputs("mod", {-1, 5, 7.5, 4}, {3, -3, 2, 0}), ElementsAre(2, -1, 1.5, 4));
}

TEST(MathFunctionTest, OutsideTheDomainStopsAtMajorStepsOnly) {
  BlockHarness h("MathFunction", {{"function", "log"}}, {2});
  h.Initialize();
  h.SetInput(0, {1.0, -1.0});
  h.MinorOutputs(0.0);
  EXPECT_TRUE(std::isnan(h.Out(0, 1)));
  try {
    h.MajorStep(0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "log of u[1] = -1 is not a real number (log needs u >= 0)");
  }
  BlockHarness pow("MathFunction", {{"function", "pow"}}, {1, 1});
  pow.SetInput(0, {-8});
  pow.SetInput(1, {1.0 / 3});
  try {
    pow.MajorStep(0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("pow of u1[0] = -8 and u2[0] = 0.3333"));
  }
  // A NaN coming in is passed on, not blamed on this block.
  BlockHarness nan_in("MathFunction", {{"function", "sqrt"}}, {1});
  nan_in.SetInput(0, {std::nan("")});
  EXPECT_NO_THROW(nan_in.MajorStep(0.0));
}

// How a run that leaves a function's domain ends: with the time and the place. Sampled (a
// discrete input), the major step that sees sqrt(-0.25) names the block and the element;
// continuous, the solver cannot step past t = 1, where sqrt(1 - t) stops being real, and names
// the state whose derivative went NaN.
TEST(MathFunctionTest, ARunLeavingTheDomainFailsWithWhenAndWhere) {
  const auto model = [](const std::string& lines) {
    return R"(<?xml version="1.0"?>
<model name="domain" format="1">
  <simulation solver="ode45" t_end="3"/>
  <block type="Ramp" name="r" slope="-1" initial="1"/>
  <block type="ZeroOrderHold" name="z" Ts="0.25"/>
  <block type="MathFunction" name="sq" function="sqrt"/>
  <block type="Integrator" name="i"/>
  )" + lines +
           R"(<connect from="sq.y" to="i.u"/>
</model>)";
  };
  const twinblocks::testing::RunOutput sampled = twinblocks::testing::RunModelText(
      model(R"(<connect from="r.y" to="z.u"/><connect from="z.y" to="sq.u"/>)"));
  EXPECT_FALSE(sampled.outcome.ok);
  EXPECT_EQ(sampled.outcome.error,
            "simulation failed at t = 1.25 s: block 'sq' (MathFunction): sqrt of u[0] = -0.25 is "
            "not a real number (sqrt needs u >= 0)");
  const twinblocks::testing::RunOutput continuous = twinblocks::testing::RunModelText(
      model(R"(<connect from="r.y" to="sq.u"/><connect from="r.y" to="z.u"/>)"));
  EXPECT_FALSE(continuous.outcome.ok);
  EXPECT_NEAR(continuous.outcome.t, 1.0, 1e-9);
  EXPECT_THAT(continuous.outcome.error,
              HasSubstr("the derivative of i (Integrator) state 0 is nan"));
}

}  // namespace
}  // namespace twinblocks::blocks
