// DiscreteTransferFunction and DiscreteFilter against hand recursions (a first-order low-pass,
// a biproper first order, an FIR), against the equivalent DiscreteStateSpace, and their bad
// parameters.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kFilterTol = 1e-12;  // a few roundings of numbers of order 1

/// Runs a single-input block at Ts = 0.1 over `u`; returns y[0] at each hit.
std::vector<double> RunAtTenthOfASecond(const std::string& type, testing::ParamTexts params,
                                        const std::vector<double>& u, int width = 1) {
  params["Ts"] = "0.1";
  BlockHarness h(type, params, {width});
  h.Initialize();
  std::vector<double> y;
  for (size_t k = 0; k < u.size(); ++k) {
    h.SetInput(0, std::vector<double>(width, u[k]));
    h.MajorStep(0.1 * static_cast<double>(k));
    y.push_back(h.Out());
  }
  return y;
}

TEST(DiscreteTransferFunctionTest, FirstOrderLowPassStepByHand) {
  // y[k] = 0.6 y[k-1] + 0.4 u[k-1]: 0.4 / (z - 0.6); the step response is 1 - 0.6^k.
  const std::vector<double> y = RunAtTenthOfASecond(
      "DiscreteTransferFunction", {{"num", "0.4"}, {"den", "[1, -0.6]"}}, {1, 1, 1, 1, 1});
  EXPECT_THAT(y, ElementsAre(DoubleNear(0.0, kFilterTol), DoubleNear(0.4, kFilterTol),
                             DoubleNear(0.64, kFilterTol), DoubleNear(0.784, kFilterTol),
                             DoubleNear(0.8704, kFilterTol)));
  EXPECT_EQ(testing::MakeBlock("DiscreteTransferFunction", {{"num", "0.4"}, {"den", "[1, -0.6]"}})
                ->input_port(0)
                .feedthrough,
            kNoFeedthrough);
}

TEST(DiscreteTransferFunctionTest, BiproperFirstOrderByHandAndLeadingCoefficientScaling) {
  // (z + 0.5) / (z - 0.5): y[k] = 0.5 y[k-1] + u[k] + 0.5 u[k-1]. Step: 1, 2, 2.5, 2.75.
  // Written with den's leading coefficient 2, the same function.
  for (const auto& [num, den] : {std::pair{"[1, 0.5]", "[1, -0.5]"}, {"[2, 1]", "[2, -1]"}}) {
    SCOPED_TRACE(num);
    EXPECT_THAT(
        RunAtTenthOfASecond("DiscreteTransferFunction", {{"num", num}, {"den", den}}, {1, 1, 1, 1}),
        ElementsAre(DoubleNear(1.0, kFilterTol), DoubleNear(2.0, kFilterTol),
                    DoubleNear(2.5, kFilterTol), DoubleNear(2.75, kFilterTol)));
  }
}

TEST(DiscreteTransferFunctionTest, ElementWiseOverAVector) {
  BlockHarness h("DiscreteTransferFunction", {{"num", "0.4"}, {"den", "[1, -0.6]"}, {"Ts", "1"}},
                 {2});
  h.Initialize();
  for (int k = 0; k < 3; ++k) {
    h.SetInput(0, {1.0, -2.0});
    h.MajorStep(k);
  }
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(0.64, kFilterTol), DoubleNear(-1.28, kFilterTol)));
}

TEST(DiscreteFilterTest, FirstOrderLowPassInPowersOfZInverse) {
  // 0.4 z^-1 / (1 - 0.6 z^-1) is the low-pass above.
  EXPECT_THAT(RunAtTenthOfASecond("DiscreteFilter", {{"num", "[0, 0.4]"}, {"den", "[1, -0.6]"}},
                                  {1, 1, 1, 1}),
              ElementsAre(DoubleNear(0.0, kFilterTol), DoubleNear(0.4, kFilterTol),
                          DoubleNear(0.64, kFilterTol), DoubleNear(0.784, kFilterTol)));
}

TEST(DiscreteFilterTest, FirImpulseResponseIsItsCoefficients) {
  // y[k] = u[k] + 2 u[k-1] + 3 u[k-2], den = 1 (a0 alone).
  EXPECT_THAT(
      RunAtTenthOfASecond("DiscreteFilter", {{"num", "[1, 2, 3]"}, {"den", "1"}}, {1, 0, 0, 0, 0}),
      ElementsAre(1.0, 2.0, 3.0, 0.0, 0.0));
  // A pure delay of two samples: num = z^-2.
  EXPECT_THAT(
      RunAtTenthOfASecond("DiscreteFilter", {{"num", "[0, 0, 1]"}, {"den", "1"}}, {1, 2, 3, 4}),
      ElementsAre(0.0, 0.0, 1.0, 2.0));
}

// y[k] = 1.2 y[k-1] - 0.5 y[k-2] + 2 u[k] + 0.5 u[k-1] + 0.3 u[k-2]: the same second-order
// function as a difference equation, a DiscreteTransferFunction, a DiscreteFilter, and a
// DiscreteStateSpace in observable canonical form (another realization than the block's):
// 2 + (2.9 z - 0.7) / (z^2 - 1.2 z + 0.5), A = [[1.2, 1], [-0.5, 0]], B = [2.9, -0.7]^T,
// C = [1, 0], D = 2.
TEST(DiscreteTransferFunctionTest, SecondOrderMatchesDifferenceEquationAndStateSpace) {
  std::vector<double> u;
  for (int k = 0; k < 40; ++k) u.push_back(std::sin(0.7 * k) + (k % 5 == 0 ? 1.0 : 0.0));
  std::vector<double> expected;
  double y1 = 0, y2 = 0, u1 = 0, u2 = 0;
  for (double uk : u) {
    const double y = 1.2 * y1 - 0.5 * y2 + 2.0 * uk + 0.5 * u1 + 0.3 * u2;
    expected.push_back(y);
    y2 = y1;
    y1 = y;
    u2 = u1;
    u1 = uk;
  }
  const std::vector<double> tf = RunAtTenthOfASecond(
      "DiscreteTransferFunction", {{"num", "[2, 0.5, 0.3]"}, {"den", "[1, -1.2, 0.5]"}}, u);
  const std::vector<double> filter = RunAtTenthOfASecond(
      "DiscreteFilter", {{"num", "[2, 0.5, 0.3]"}, {"den", "[1, -1.2, 0.5]"}}, u);
  const std::vector<double> ss = RunAtTenthOfASecond(
      "DiscreteStateSpace",
      {{"A", "[[1.2, 1], [-0.5, 0]]"}, {"B", "[[2.9], [-0.7]]"}, {"C", "[[1, 0]]"}, {"D", "2"}}, u);
  ASSERT_EQ(tf.size(), expected.size());
  for (size_t k = 0; k < u.size(); ++k) {
    SCOPED_TRACE(k);
    // The output stays below 10: 1e-12 is a few hundred roundings.
    EXPECT_NEAR(tf[k], expected[k], 1e-12);
    EXPECT_NEAR(filter[k], expected[k], 1e-12);
    EXPECT_NEAR(ss[k], expected[k], 1e-12);
  }
}

TEST(DiscreteTransferFunctionTest, BadParametersNameTheParameter) {
  auto error = [](const std::string& type, const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock(type, p); });
  };
  const BlockError improper =
      error("DiscreteTransferFunction", {{"num", "[1, 2, 3]"}, {"den", "[1, 2]"}});
  EXPECT_EQ(improper.param(), "num");
  EXPECT_THAT(improper.what(), HasSubstr("improper"));
  // Leading zeros of num are fine; of den they are not.
  EXPECT_NO_THROW(
      testing::MakeBlock("DiscreteTransferFunction", {{"num", "[0, 0, 1]"}, {"den", "[1, 2]"}}));
  const BlockError lead = error("DiscreteTransferFunction", {{"den", "[0, 1]"}});
  EXPECT_EQ(lead.param(), "den");
  EXPECT_THAT(lead.what(), HasSubstr("nonzero"));
  EXPECT_EQ(error("DiscreteFilter", {{"den", "[0, 1]"}}).param(), "den");
  EXPECT_EQ(error("DiscreteFilter", {{"num", "[1, inf]"}}).param(), "num");
  EXPECT_EQ(error("DiscreteTransferFunction", {{"Ts", "-2"}}).param(), "Ts");
}

}  // namespace
}  // namespace twinblocks::blocks
