#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

// Closed form y = sin(2 pi (f0 t + (f1 - f0) t^2 / (2 T))) to 1e-12, for both elements.
TEST(ChirpTest, PhaseIsTheIntegralOfTheLinearFrequency) {
  BlockHarness h(
      "Chirp",
      {{"initial_frequency", "[0.5, 2]"}, {"target_time", "4"}, {"target_frequency", "[4.5, 1]"}},
      {});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize(0.0);
  for (double t : {0.0, 0.1, 0.77, 2.0, 3.999, 4.0, 6.5}) {
    h.MinorOutputs(t);
    const double y0 = std::sin(2 * std::numbers::pi * (0.5 * t + 4.0 * t * t / 8.0));
    const double y1 = std::sin(2 * std::numbers::pi * (2.0 * t - 1.0 * t * t / 8.0));
    EXPECT_NEAR(h.Out(0, 0), y0, 1e-12) << t;
    EXPECT_NEAR(h.Out(0, 1), y1, 1e-12) << t;
  }
}

// The instantaneous frequency, the phase's rate / 2 pi, is f0 + (f1 - f0) t / T: f0 at 0, f1
// at T. Measured from successive zeros z1 < z2 of y (half a period apart): the mean frequency
// over [z1, z2], 1 / (2 (z2 - z1)), is that law at the midpoint (exact for a linear law), to
// 1e-9 relative.
TEST(ChirpTest, FrequencyRisesFromF0ToF1AtTheTargetTime) {
  BlockHarness h(
      "Chirp", {{"initial_frequency", "10"}, {"target_time", "2"}, {"target_frequency", "30"}}, {});
  h.Initialize(0.0);
  auto y = [&](double t) {
    h.MinorOutputs(t);
    return h.Out();
  };
  auto zero_after = [&](double from) {
    double a = from, b = from + 1e-3;
    while (std::signbit(y(a)) == std::signbit(y(b))) {
      a = b;
      b += 1e-3;
    }
    for (int i = 0; i < 60; ++i) {
      const double m = 0.5 * (a + b);
      (std::signbit(y(a)) == std::signbit(y(m)) ? a : b) = m;
    }
    return 0.5 * (a + b);
  };
  for (double t : {0.01, 0.5, 1.3, 1.98}) {
    const double z1 = zero_after(t);
    const double z2 = zero_after(z1 + 1e-3);
    const double mid = 0.5 * (z1 + z2);
    EXPECT_NEAR(0.5 / (z2 - z1), 10.0 + 10.0 * mid, 1e-9 * 30.0) << t;
  }
}

TEST(ChirpTest, TargetTimeMustBePositive) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("Chirp", {{"target_time", "0"}});
  });
  EXPECT_EQ(e.param(), "target_time");
  EXPECT_THAT(e.what(), HasSubstr("must be positive and finite, in s"));
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Chirp", {{"initial_frequency", "inf"}});
            }).param(),
            "initial_frequency");
}

}  // namespace
}  // namespace twinblocks::blocks
