#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "blocks/signal/detail/counter_random.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

// Closed form: sample k is minimum + (maximum - minimum) u(key(seed), k), bit for bit; and
// 40000 samples lie in [minimum, maximum) with mean (a + b) / 2 and variance (b - a)^2 / 12
// within 4 standard deviations of their estimators.
TEST(UniformRandomNumberTest, SamplesAreTheStreamsUniformDraws) {
  constexpr int kN = 40000;
  BlockHarness h("UniformRandomNumber",
                 {{"minimum", "-2"}, {"maximum", "6"}, {"seed", "99"}, {"Ts", "0.01"}}, {});
  h.Initialize(0.0);
  std::vector<double> y;
  for (int k = 0; k < kN; ++k) {
    h.MajorStep(k * 0.01);
    y.push_back(h.Out());
    if (k < 100) {
      EXPECT_EQ(y.back(), -2.0 + 8.0 * internal::StreamUniform(internal::StreamKey(99), k));
    }
    ASSERT_GE(y.back(), -2.0);
    ASSERT_LT(y.back(), 6.0);
  }
  double mean = 0.0;
  for (double v : y) mean += v / kN;
  double var = 0.0;
  for (double v : y) var += (v - mean) * (v - mean) / (kN - 1);
  const double sigma2 = 64.0 / 12.0;
  EXPECT_NEAR(mean, 2.0, 4.0 * std::sqrt(sigma2 / kN));
  // The variance of a uniform's sample variance: (mu4 - sigma^4 (N - 3) / (N - 1)) / N, with
  // mu4 = (b - a)^4 / 80.
  const double mu4 = 4096.0 / 80.0;
  EXPECT_NEAR(var, sigma2, 4.0 * std::sqrt((mu4 - sigma2 * sigma2 * (kN - 3.0) / (kN - 1.0)) / kN));
}

TEST(UniformRandomNumberTest, BoundsPerElement) {
  BlockHarness h("UniformRandomNumber", {{"minimum", "[0, 10]"}, {"maximum", "[1, 10]"}}, {});
  h.Initialize(0.0);
  for (int k = 0; k < 50; ++k) {
    h.MajorStep(k * 0.1);
    EXPECT_GE(h.Out(0, 0), 0.0);
    EXPECT_LT(h.Out(0, 0), 1.0);
    EXPECT_EQ(h.Out(0, 1), 10.0);  // minimum == maximum: a constant
  }
}

TEST(UniformRandomNumberTest, MaximumBelowMinimumIsAnError) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("UniformRandomNumber", {{"minimum", "1"}, {"maximum", "0"}});
  });
  EXPECT_EQ(e.param(), "maximum");
  EXPECT_THAT(e.what(), HasSubstr("must be >= 'minimum'"));
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("UniformRandomNumber", {{"maximum", "inf"}});
            }).param(),
            "maximum");
}

}  // namespace
}  // namespace twinblocks::blocks
