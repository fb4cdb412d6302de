// HitCrossing: 1 at the major step where u reaches the offset in the chosen direction, by
// hand (crossing, touching, staying on it, starting on it); a sine under ode45 with each hit
// on a located crossing; no allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/step_allocations.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;

std::vector<double> Hits(const std::string& direction, const std::vector<double>& inputs) {
  BlockHarness h("HitCrossing", {{"offset", "1"}, {"direction", direction}}, {1});
  h.Initialize();
  std::vector<double> y;
  double t = 0.0;
  for (double u : inputs) {
    h.SetInputs({u});
    h.MajorStep(t += 0.1);
    y.push_back(h.Out());
  }
  return y;
}

TEST(HitCrossingTest, OneAtTheStepThatReachesTheOffset) {
  // Up through 1, down through 1, up to exactly 1 and staying, then leaving upwards.
  const std::vector<double> u = {0.0, 2.0, 3.0, 0.5, 1.0, 1.0, 2.0, 1.5};
  EXPECT_THAT(Hits("rising", u), ElementsAre(0, 1, 0, 0, 1, 1, 0, 0));
  EXPECT_THAT(Hits("falling", u), ElementsAre(0, 0, 0, 1, 0, 0, 0, 0));
  EXPECT_THAT(Hits("either", u), ElementsAre(0, 1, 0, 1, 1, 1, 0, 0));
  // Starting on the offset counts only for either direction.
  EXPECT_THAT(Hits("either", {1.0, 2.0}), ElementsAre(1, 0));
  EXPECT_THAT(Hits("rising", {1.0, 2.0}), ElementsAre(0, 0));
}

TEST(HitCrossingTest, TheOutputIsHeldInsideASolverStep) {
  BlockHarness h("HitCrossing", {{"offset", "0.5"}}, {1});
  h.Initialize();
  h.SetInputs({0.0});
  h.MajorStep(0.0);
  h.SetInputs({1.0});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.5));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  h.MinorOutputs(0.15);
  EXPECT_EQ(h.Out(), 1.0);
  h.MajorStep(0.2);
  EXPECT_EQ(h.Out(), 0.0);
}

// sin t reaches 1/2 rising at pi/6 + 2 pi k and falling at 5 pi/6 + 2 pi k, each time on a
// located crossing.
TEST(HitCrossingTest, ASineHitsTheOffsetOnLocatedCrossings) {
  for (const char* direction : {"rising", "falling"}) {
    SCOPED_TRACE(direction);
    const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="hit_sine" format="1">
  <simulation solver="ode45" t_end="20"/>
  <block type="Sine" name="u"/>
  <block type="HitCrossing" name="hit" offset="0.5" direction=")" +
                              std::string(direction) + R"("/>
  <block type="Integrator" name="x"/>
  <connect from="u.y" to="x.u"/>
  <connect from="u.y" to="hit.u"/>
  <log signal="hit.y" as="y"/>
</model>
)";
    const auto out = twinblocks::testing::RunModelText(model);
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = twinblocks::testing::Times(out.recording);
    const std::vector<double> y = twinblocks::testing::Column(out.recording, "y");
    const double first =
        std::string(direction) == "rising" ? std::numbers::pi / 6.0 : 5.0 * std::numbers::pi / 6.0;
    std::vector<double> hits;
    for (size_t k = 0; k < t.size(); ++k) {
      if (y[k] == 1.0) hits.push_back(t[k]);
    }
    // Rising: 0.52, 6.81, 13.09, 19.37 s; falling: 2.62, 8.90, 15.18 s.
    ASSERT_EQ(hits.size(), std::string(direction) == "rising" ? 4u : 3u);
    for (size_t i = 0; i < hits.size(); ++i) {
      EXPECT_NEAR(hits[i], first + 2.0 * std::numbers::pi * i, 1e-9);
    }
  }
}

TEST(HitCrossingTest, AllocatesNothingWhileStepping) {
  BlockHarness h("HitCrossing", {}, {2});
  h.Initialize();
  std::vector<double> u(2);
  const long allocations = testing::AllocationsWhileStepping(h, 300, 0.01, [&](double t) {
    u[0] = std::sin(7.0 * t);
    u[1] = std::cos(7.0 * t);
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
