#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "blocks/signal/detail/counter_random.h"
#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

// Closed form: sample k is sqrt(power / Ts) n(key(seed), k), bit for bit.
TEST(BandLimitedWhiteNoiseTest, SampleKIsScaledNormalDrawK) {
  BlockHarness h("BandLimitedWhiteNoise", {{"power", "0.5"}, {"Ts", "0.02"}}, {});
  EXPECT_EQ(h.block().sample_time().period, 0.02);
  h.Initialize(0.0);
  for (int k = 0; k < 100; ++k) {
    h.MajorStep(k * 0.02);
    EXPECT_EQ(h.Out(),
              std::sqrt(0.5 / 0.02) * internal::StreamNormal(internal::StreamKey(23341), k));
  }
}

// L5: a whole run's logged noise (40000 samples at Ts = 0.01 s, power 0.2: variance
// power / Ts = 20) has mean 0 and variance 20 within 4 standard deviations of their
// estimators (sqrt(20 / N) and 20 sqrt(2 / (N - 1))): fails by chance with probability 1e-4.
TEST(BandLimitedWhiteNoiseTest, RunHasVariancePowerOverTs) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(R"(<model name="blwn" format="1">
  <simulation solver="ode4" step="0.01" t_end="399.99"/>
  <block type="BandLimitedWhiteNoise" name="w" power="0.2" Ts="0.01" seed="[1, 2]"/>
  <log signal="w.y" as="w"/>
</model>)");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  for (const char* column : {"w[0]", "w[1]"}) {
    SCOPED_TRACE(column);
    const std::vector<double> y = twinblocks::testing::Column(out.recording, column);
    const double n = static_cast<double>(y.size());
    ASSERT_EQ(y.size(), 40000u);
    double mean = 0.0;
    for (double v : y) mean += v / n;
    double var = 0.0;
    for (double v : y) var += (v - mean) * (v - mean) / (n - 1.0);
    EXPECT_NEAR(mean, 0.0, 4.0 * std::sqrt(20.0 / n));
    EXPECT_NEAR(var, 20.0, 4.0 * 20.0 * std::sqrt(2.0 / (n - 1.0)));
  }
  // The two elements are independent streams: their sample correlation is within 4 / sqrt(N)
  // of 0.
  const std::vector<double> a = twinblocks::testing::Column(out.recording, "w[0]");
  const std::vector<double> b = twinblocks::testing::Column(out.recording, "w[1]");
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  EXPECT_NEAR(ab / std::sqrt(aa * bb), 0.0, 4.0 / std::sqrt(static_cast<double>(a.size())));
}

TEST(BandLimitedWhiteNoiseTest, BadParametersNameThemselves) {
  EXPECT_THAT(testing::CatchBlockError([] {
                testing::MakeBlock("BandLimitedWhiteNoise", {{"power", "-0.1"}});
              }).what(),
              HasSubstr("parameter 'power' must be finite and >= 0"));
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("BandLimitedWhiteNoise", {{"Ts", "0"}});
            }).param(),
            "Ts");
  EXPECT_THAT(
      testing::CatchBlockError([] {
        testing::MakeBlock("BandLimitedWhiteNoise", {{"power", "[1, 2]"}, {"seed", "[1, 2, 3]"}});
      }).what(),
      HasSubstr("'seed' has 3 elements"));
}

}  // namespace
}  // namespace twinblocks::blocks
