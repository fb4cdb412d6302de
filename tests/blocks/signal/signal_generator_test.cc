#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "blocks/signal/detail/counter_random.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

TEST(SignalGeneratorTest, SineInRadPerSecondAndHertz) {
  BlockHarness rad("SignalGenerator", {{"amplitude", "2"}, {"frequency", "3"}}, {});
  BlockHarness hz("SignalGenerator", {{"amplitude", "2"}, {"frequency", "0.5"}, {"units", "Hz"}},
                  {});
  EXPECT_TRUE(rad.block().depends_on_time());
  EXPECT_FALSE(rad.block().has_breakpoints());
  rad.Initialize(0.0);
  hz.Initialize(0.0);
  for (double t : {0.0, 0.3, 1.7, 12.25}) {
    rad.MinorOutputs(t);
    hz.MinorOutputs(t);
    EXPECT_EQ(rad.Out(), 2.0 * std::sin(3.0 * t));
    EXPECT_EQ(hz.Out(), 2.0 * std::sin(2.0 * std::numbers::pi * 0.5 * t));
  }
}

// Square of 2 Hz: +A on [k/2, k/2 + 1/4), -A on [k/2 + 1/4, (k+1)/2); every edge a breakpoint,
// a stage landing on it keeps the old level, the major step there takes the new one.
TEST(SignalGeneratorTest, SquareSwitchesAtHalfPeriodBreakpoints) {
  BlockHarness h(
      "SignalGenerator",
      {{"waveform", "square"}, {"amplitude", "1.5"}, {"frequency", "2"}, {"units", "Hz"}}, {});
  EXPECT_TRUE(h.block().has_breakpoints());
  EXPECT_FALSE(h.block().depends_on_time());
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.5);
  double t = 0.0;
  double level = 1.5;
  for (int i = 1; i <= 8; ++i) {
    const double next = h.NextBreakpoint(t);
    EXPECT_EQ(next, i * 0.25);
    h.MinorOutputs(next);
    EXPECT_EQ(h.Out(), level) << "a stage on the edge keeps the left limit";
    h.MajorStep(next);
    level = -level;
    EXPECT_EQ(h.Out(), level) << next;
    h.MinorOutputs(next + 0.1);
    EXPECT_EQ(h.Out(), level);
    t = next;
  }
}

// Sawtooth of period 2*pi/w: A (2 frac(w t / 2 pi) - 1), jumping back at each period.
TEST(SignalGeneratorTest, SawtoothRisesOverEachPeriod) {
  BlockHarness h("SignalGenerator",
                 {{"waveform", "sawtooth"}, {"amplitude", "[1, 3]"}, {"frequency", "pi"}}, {});
  EXPECT_TRUE(h.block().depends_on_time());
  h.Initialize(0.0);
  for (double t : {0.0, 0.5, 1.25, 2.0, 3.9, 4.0}) {
    h.MajorStep(t);
    const double c = t / 2.0;  // period 2 s
    const double expected = 2.0 * (c - std::floor(c)) - 1.0;
    EXPECT_NEAR(h.Out(0, 0), expected, 1e-14) << t;
    EXPECT_NEAR(h.Out(0, 1), 3.0 * expected, 3e-14) << t;
  }
  EXPECT_NEAR(h.NextBreakpoint(0.0), 2.0, 1e-15);
  h.MajorStep(1.5);
  h.MinorOutputs(h.NextBreakpoint(1.5));  // the stage at the period's end: the left limit
  EXPECT_NEAR(h.Out(), 1.0, 1e-14);
}

// Random: a value uniform on [-A, A) per period, period k taking the stream's draw k.
TEST(SignalGeneratorTest, RandomIsANewUniformValueEachPeriod) {
  BlockHarness h("SignalGenerator",
                 {{"waveform", "random"},
                  {"amplitude", "4"},
                  {"frequency", "10"},
                  {"units", "Hz"},
                  {"seed", "77"}},
                 {});
  h.Initialize(0.0);
  for (int k = 0; k < 30; ++k) {
    const double expected = 4.0 * (2.0 * internal::StreamUniform(internal::StreamKey(77), k) - 1.0);
    h.MajorStep(k * 0.1);
    EXPECT_EQ(h.Out(), expected) << k;
    h.MinorOutputs(k * 0.1 + 0.05);
    EXPECT_EQ(h.Out(), expected);
    EXPECT_NEAR(h.NextBreakpoint(k * 0.1 + 0.05), (k + 1) * 0.1, 1e-15);
  }
}

TEST(SignalGeneratorTest, BadParametersNameThemselves) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("SignalGenerator", {{"frequency", "0"}, {"units", "Hz"}});
  });
  EXPECT_EQ(e.param(), "frequency");
  EXPECT_THAT(e.what(), HasSubstr("must be positive and finite, in Hz"));
  EXPECT_EQ(
      testing::CatchBlockError([] {
        testing::MakeBlock("SignalGenerator", {{"amplitude", "[1, 2]"}, {"seed", "[1, 2, 3]"}});
      }).param(),
      "seed");
}

}  // namespace
}  // namespace twinblocks::blocks
