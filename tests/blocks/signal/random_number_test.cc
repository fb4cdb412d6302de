#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "blocks/signal/detail/counter_random.h"
#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/blocks/block_test_helpers.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

// The first `count` samples of a noise block at its hits k Ts (element `i`).
std::vector<double> NoiseSamples(BlockHarness& h, double ts, int count, int i = 0) {
  std::vector<double> y;
  h.Initialize(0.0);
  for (int k = 0; k < count; ++k) {
    h.MajorStep(k * ts);
    y.push_back(h.Out(0, i));
  }
  return y;
}

double SampleMean(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double SampleVariance(const std::vector<double>& v) {
  const double m = SampleMean(v);
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}

// The published first outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c): the streams
// are that generator, draw n its (n + 1)-th output.
TEST(CounterRandomTest, StreamOfKeyZeroIsSplitMix64SeededWithZero) {
  EXPECT_EQ(internal::StreamBits(0, 0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(internal::StreamBits(0, 1), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(internal::StreamBits(0, 2), 0x06c45d188009454fULL);
}

// Closed form: sample k of element i is mean + sqrt(variance) n(key(seed_i), k), bit for bit.
TEST(RandomNumberTest, SampleKIsTheStreamsNormalDrawK) {
  BlockHarness h("RandomNumber", {{"mean", "2"}, {"variance", "9"}, {"seed", "[7, 1000]"}}, {});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  ASSERT_EQ(h.block().sample_time().period, 0.1);
  const std::vector<double> y0 = NoiseSamples(h, 0.1, 50, 0);
  BlockHarness h1("RandomNumber", {{"mean", "2"}, {"variance", "9"}, {"seed", "[7, 1000]"}}, {});
  const std::vector<double> y1 = NoiseSamples(h1, 0.1, 50, 1);
  for (int k = 0; k < 50; ++k) {
    EXPECT_EQ(y0[k], 2.0 + 3.0 * internal::StreamNormal(internal::StreamKey(7), k));
    EXPECT_EQ(y1[k], 2.0 + 3.0 * internal::StreamNormal(internal::StreamKey(1000), k));
  }
}

TEST(RandomNumberTest, HoldsBetweenHitsAndRepeatsWithItsSeed) {
  BlockHarness a("RandomNumber", {{"seed", "5"}, {"Ts", "0.5"}}, {});
  a.Initialize(0.0);
  a.MajorStep(0.0);
  const double first = a.Out();
  a.MajorStep(0.25);  // not a hit: held
  EXPECT_EQ(a.Out(), first);
  a.MajorStep(0.5);
  EXPECT_NE(a.Out(), first);
  BlockHarness b("RandomNumber", {{"seed", "5"}, {"Ts", "0.5"}}, {});
  BlockHarness other("RandomNumber", {{"seed", "6"}, {"Ts", "0.5"}}, {});
  EXPECT_EQ(NoiseSamples(b, 0.5, 20), NoiseSamples(a, 0.5, 20));
  EXPECT_NE(NoiseSamples(other, 0.5, 20), NoiseSamples(a, 0.5, 20));
}

// A scalar seed s gives element i the stream of s + i: independent elements, and the same
// numbers as a block seeded s + i.
TEST(RandomNumberTest, ScalarSeedGivesEachElementItsOwnStream) {
  BlockHarness vec("RandomNumber", {{"mean", "[0, 0, 0]"}, {"seed", "4"}}, {});
  ASSERT_EQ(vec.block().output_port(0).width, 3);
  BlockHarness third("RandomNumber", {{"seed", "6"}}, {});
  const std::vector<double> e2 = NoiseSamples(vec, 0.1, 30, 2);
  EXPECT_EQ(e2, NoiseSamples(third, 0.1, 30));
  BlockHarness again("RandomNumber", {{"mean", "[0, 0, 0]"}, {"seed", "4"}}, {});
  EXPECT_NE(NoiseSamples(again, 0.1, 30, 0), e2);
}

// Mean and variance of 40000 samples within 4 standard deviations of their estimators
// (sigma / sqrt(N) and sigma^2 sqrt(2 / (N - 1))): fails by chance with probability 1e-4.
TEST(RandomNumberTest, MeanAndVarianceAreThoseAsked) {
  constexpr int kN = 40000;
  BlockHarness h("RandomNumber", {{"mean", "-1.5"}, {"variance", "4"}, {"seed", "12345"}}, {});
  const std::vector<double> y = NoiseSamples(h, 0.1, kN);
  EXPECT_NEAR(SampleMean(y), -1.5, 4.0 * 2.0 / std::sqrt(kN));
  EXPECT_NEAR(SampleVariance(y), 4.0, 4.0 * 4.0 * std::sqrt(2.0 / (kN - 1)));
}

TEST(RandomNumberTest, BadParametersNameThemselves) {
  for (const auto& [param, text, says] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"variance", "-1", "parameter 'variance' must be finite and >= 0"},
           {"seed", "1.5", "parameter 'seed' must hold whole numbers in [0, 2^53]"},
           {"seed", "-3", "parameter 'seed' must hold whole numbers"},
           {"Ts", "0", "parameter 'Ts' must be a positive"},
           {"Ts", "-1", "parameter 'Ts' must be a positive"},
           {"mean", "[1, 2, 3]", "but another parameter has"}}) {
    SCOPED_TRACE(param + "=" + text);
    testing::ParamTexts texts = {{param, text}};
    if (param == "mean") texts["seed"] = "[1, 2]";
    const BlockError e =
        testing::CatchBlockError([&] { testing::MakeBlock("RandomNumber", texts); });
    EXPECT_THAT(e.what(), HasSubstr(says));
  }
}

// Saving a run's state and restoring it draws the same numbers again: the block's only memory
// is the count of its draws, a discrete state the snapshot holds.
TEST(RandomNumberTest, RestoredRunDrawsTheSameNumbers) {
  const graph::System system =
      graph::Compile(xml::ReadModelString(R"(<model name="noise" format="1">
  <simulation solver="ode4" step="0.01" t_end="2"/>
  <block type="RandomNumber" name="n" seed="[3, 9]" Ts="0.05"/>
  <block type="BandLimitedWhiteNoise" name="w" Ts="0.02"/>
  <block type="Mux" name="m" inputs="2"/>
  <block type="Integrator" name="x" x0="[0, 0, 0]"/>
  <connect from="n.y" to="m.u1"/>
  <connect from="w.y" to="m.u2"/>
  <connect from="m.y" to="x.u"/>
  <log signal="m.y" as="noise"/>
</model>)",
                                          twinblocks::testing::SourcePath("tests/inline.xml")));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  ASSERT_TRUE(sim.AdvanceTo(0.73).ok);
  const graph::SimulationSnapshot saved = sim.SaveState();
  const int rows = sim.recording().num_rows();
  ASSERT_TRUE(sim.Run().ok);
  const graph::Recording first = sim.recording();
  sim.RestoreState(saved);
  EXPECT_EQ(sim.recording().num_rows(), rows);
  ASSERT_TRUE(sim.Run().ok);
  const graph::Recording& again = sim.recording();
  ASSERT_EQ(again.num_rows(), first.num_rows());
  for (const char* column : {"noise[0]", "noise[1]", "noise[2]"}) {
    EXPECT_EQ(twinblocks::testing::Column(again, column),
              twinblocks::testing::Column(first, column))
        << column;
  }
}

}  // namespace
}  // namespace twinblocks::blocks
