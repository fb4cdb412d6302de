// DiscreteDerivative against a hand recursion, its initial condition, and bad parameters.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

TEST(DiscreteDerivativeTest, BackwardDifferenceByHand) {
  // K = 2, Ts = 0.5, x0 = 1 (= K u[-1] / Ts): y[0] = 4 u[0] - 1, then 4 (u[k] - u[k-1]).
  BlockHarness h("DiscreteDerivative", {{"K", "2"}, {"x0", "1"}, {"Ts", "0.5"}}, {1});
  h.Initialize();
  std::vector<double> y;
  for (double u : {1.0, 3.0, 2.0, 2.0}) {
    h.SetInput(0, {u});
    h.MajorStep(0.5 * static_cast<double>(y.size()));
    y.push_back(h.Out());
  }
  EXPECT_THAT(y, ElementsAre(3.0, 8.0, -4.0, 0.0));
}

TEST(DiscreteDerivativeTest, RampGivesItsSlopePerElement) {
  // u = (t, -3 t) sampled at Ts = 0.1: after the first hit the slopes, to rounding.
  BlockHarness::Options o;
  o.inherited_as = SampleTime::Discrete(0.1);
  BlockHarness h("DiscreteDerivative", {}, {2}, o);
  h.Initialize();
  for (int k = 0; k < 4; ++k) {
    const double t = 0.1 * k;
    h.SetInput(0, {t, -3.0 * t});
    h.MajorStep(t);
  }
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(1.0, 1e-12), DoubleNear(-3.0, 1e-12)));
}

TEST(DiscreteDerivativeTest, BadParametersNameTheParameter) {
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("DiscreteDerivative", {{"K", "inf"}});
            }).param(),
            "K");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("DiscreteDerivative", {{"Ts", "0"}});
            }).param(),
            "Ts");
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("DiscreteDerivative", {{"x0", "[1, 2]"}, {"Ts", "1"}}, {3});
            }).param(),
            "x0");
}

}  // namespace
}  // namespace twinblocks::blocks
