#include "blocks/lookup/lookup_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
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

const testing::ParamTexts kSteps = {{"breakpoints", "[0, 1, 3]"}, {"table", "[1, 3, 2]"}};

testing::ParamTexts With(testing::ParamTexts p, const std::string& name, const std::string& v) {
  p[name] = v;
  return p;
}

TEST(LookupTableTest, LooksUpEachElementInTheSameTable) {
  BlockHarness h("LookupTable", kSteps, {5});
  ASSERT_EQ(h.block().output_port(0).width, 5);
  EXPECT_EQ(h.block().num_modes(), 0);
  EXPECT_EQ(h.block().num_zero_crossings(), 0);  // linear: continuous
  EXPECT_EQ(h.block().num_dwork(), 5);           // a search hint per element
  h.Initialize();
  h.SetInput(0, {0.5, 1.0, 2.0, -1.0, 4.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 3.0, 2.5, -1.0, 1.5));  // linear extrapolation
  EXPECT_THAT(h.dwork(), ElementsAre(0.0, 1.0, 1.0, 0.0, 1.0));
  BlockHarness clip("LookupTable", With(kSteps, "extrapolation", "clip"), {2});
  clip.Initialize();
  clip.SetInput(0, {-1.0, 4.0});
  clip.MajorStep(0.0);
  EXPECT_THAT(clip.Output(), ElementsAre(1.0, 2.0));
}

TEST(LookupTableTest, FlatHoldsItsCellInsideSolverStepsAndReportsItsEnds) {
  BlockHarness h("LookupTable", With(kSteps, "interpolation", "flat"), {1});
  EXPECT_EQ(h.block().num_modes(), 1);
  EXPECT_EQ(h.block().num_zero_crossings(), 2);
  h.Initialize();
  h.SetInput(0, {0.5});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, -0.5));  // open below; u - 1 above
  h.SetInput(0, {1.5});  // past the breakpoint inside a step: y holds, u - 1 changed sign
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 0.5));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 3.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.5, -1.5));  // u - 1 >= 0, u - 3 < 0 inside
  h.SetInput(0, {7.0});
  h.MajorStep(0.2);
  EXPECT_EQ(h.Out(), 2.0);  // clips
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(4.0, -1.0));
  h.SetInput(0, {std::numeric_limits<double>::quiet_NaN()});
  h.MajorStep(0.3);
  EXPECT_TRUE(std::isnan(h.Out()));
}

TEST(LookupTableTest, NearestCutsAtMidpoints) {
  BlockHarness h("LookupTable", With(kSteps, "interpolation", "nearest"), {3});
  h.Initialize();
  h.SetInput(0, {0.49, 0.5, 2.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 3.0, 2.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, DoubleNear(-0.01, 1e-15), 0.0, -1.5, 0.0, -1.0));
}

TEST(LookupTableTest, SplineThroughACubicAndItsEndPolynomial) {
  // p(x) = x^3 - 2x on uneven breakpoints; not-a-knot reproduces it, and spline
  // extrapolation continues it.
  BlockHarness h("LookupTable",
                 {{"breakpoints", "[-2, -1.5, 0, 0.4, 2]"},
                  {"table", "[-4, -0.375, 0, -0.736, 4]"},
                  {"interpolation", "spline"},
                  {"extrapolation", "spline"}},
                 {4});
  h.Initialize();
  const std::vector<double> u = {-2.5, -0.3, 1.1, 3.0};
  h.SetInput(0, u);
  h.MajorStep(0.0);
  for (int i = 0; i < 4; ++i) {
    const double p = u[i] * u[i] * u[i] - 2.0 * u[i];
    EXPECT_NEAR(h.Out(0, i), p, 1e-12 * std::max(1.0, std::abs(p))) << u[i];
  }
}

TEST(LookupTableTest, ReadsItsTableFromACsvFileBesideTheModel) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/lt_friction.csv") << "v (m/s),F (N)\n1,2.5\n-1,-2.5\n0,0\n0.1,2\n-0.1,-2\n";
  BlockHarness::Options in_dir;
  in_dir.base_dir = dir;
  BlockHarness h("LookupTable", {{"file", "lt_friction.csv"}, {"extrapolation", "clip"}}, {3},
                 in_dir);
  h.Initialize();
  h.SetInput(0, {0.05, -2.0, 0.55});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, -2.5, DoubleNear(2.25, 1e-15)));
}

TEST(LookupTableTest, RefusesBadParametersInOneLine) {
  auto error = [](const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock("LookupTable", p); });
  };
  EXPECT_THAT(error({{"breakpoints", "[0, 2, 1]"}, {"table", "[1, 2, 3]"}}).what(),
              HasSubstr("parameter 'breakpoints' must be strictly increasing"));
  EXPECT_THAT(error({{"breakpoints", "[0, 1, 2]"}, {"table", "[1, 2]"}}).what(),
              HasSubstr("parameter 'table' has 2 values, but 'breakpoints' has 3"));
  EXPECT_THAT(error({{"breakpoints", "[0, 1]"}, {"table", "[1, inf]"}}).what(),
              HasSubstr("parameter 'table': value 2 is inf, not a finite number"));
  EXPECT_THAT(error({{"breakpoints", "[0, 1]"}}).what(),
              HasSubstr("parameter 'table' is required (the table is given by 'breakpoints' and "
                        "'table', or by 'file')"));
  EXPECT_THAT(error({{"breakpoints", "[0, 1]"}, {"table", "[0, 1]"}, {"file", "t.csv"}}).what(),
              HasSubstr("give either 'file' or 'breakpoints' and 'table', not both"));
  EXPECT_THAT(error(With(kSteps, "extrapolation", "spline")).what(),
              HasSubstr("extrapolation 'spline' needs interpolation 'spline'"));
  EXPECT_THAT(error({{"file", "/nonexistent/t.csv"}}).what(),
              HasSubstr("cannot read '/nonexistent/t.csv'"));
}

// A staircase of time, integrated by ode45: each step of the table is a zero crossing the
// solver lands on, so the integral is exact to the solver's tolerance:
// 1 * 0.35 - 2 * 0.75 + 0.5 * 0.6 + 3 * 0.3 = 0.05 at t = 2.
TEST(LookupTableTest, FlatStepsOfTimeIntegrateExactlyThroughZeroCrossings) {
  const auto out = twinblocks::testing::RunModelText(R"(<?xml version="1.0"?>
<model name="staircase" format="1">
  <simulation solver="ode45" t_end="2" rtol="1e-10" atol="1e-12"/>
  <block type="Clock" name="clock"/>
  <block type="LookupTable" name="stairs" breakpoints="[0, 0.35, 1.1, 1.7]"
         table="[1, -2, 0.5, 3]" interpolation="flat"/>
  <block type="Integrator" name="area"/>
  <connect from="clock.t" to="stairs.u"/>
  <connect from="stairs.y" to="area.u"/>
  <log signal="area.y" as="area"/>
</model>)");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  EXPECT_NEAR(twinblocks::testing::Column(out.recording, "area").back(), 0.05, 1e-10);
  EXPECT_GE(out.stats.resets.zero_crossings, 3);
}

}  // namespace
}  // namespace twinblocks::blocks

namespace twinblocks::blocks {
namespace {

// The example drive: every change of the fan's stage (a flat table over the speed) comes at
// a located zero crossing, on a row whose speed is the stage's breakpoint to the solver's
// location tolerance; the energy drawn is the integral of the logged power.
TEST(LookupTableTest, ExampleDriveLandsOnEachFanStage) {
  const auto out = twinblocks::testing::RunModelFile("examples/lookup_tables.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> w = twinblocks::testing::Column(out.recording, "w");
  const std::vector<double> fan = twinblocks::testing::Column(out.recording, "fan_stage");
  int changes = 0;
  for (std::size_t i = 1; i < fan.size(); ++i) {
    if (fan[i] == fan[i - 1]) continue;
    ++changes;
    const double cut = fan[i] > fan[i - 1] ? 150.0 * fan[i] : 150.0 * fan[i - 1];
    EXPECT_NEAR(w[i], cut, 1e-6) << "t = " << t[i];
  }
  EXPECT_GE(changes, 3);
  const std::vector<double> power = twinblocks::testing::Column(out.recording, "power");
  const std::vector<double> energy = twinblocks::testing::Column(out.recording, "energy");
  double trapezoid = 0.0;
  for (std::size_t i = 1; i < t.size(); ++i) {
    trapezoid += 0.5 * (t[i] - t[i - 1]) * (power[i] + power[i - 1]);
  }
  EXPECT_NEAR(energy.back(), trapezoid, 0.02 * energy.back());
}

}  // namespace
}  // namespace twinblocks::blocks
