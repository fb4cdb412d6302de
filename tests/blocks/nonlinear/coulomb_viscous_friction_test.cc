// CoulombViscousFriction: sign(u) (offset + gain |u|) by hand, the sign held inside the
// solver's steps, a sine under ode45 with each change of sign located; no allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(CoulombViscousFrictionTest, CoulombPlusViscous) {
  BlockHarness h("CoulombViscousFriction", {{"offset", "[1, 2, 3]"}, {"gain", "0.5"}}, {3});
  h.Initialize();
  h.SetInput(0, {2.0, -2.0, 0.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -3.0, 0.0));
}

TEST(CoulombViscousFrictionTest, TheSignIsHeldInsideASolverStep) {
  BlockHarness h("CoulombViscousFriction", {}, {1});
  h.Initialize();
  h.SetInputs({1.0});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 2.0);
  h.SetInputs({-0.25});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.75);  // + offset + gain u: smooth through 0 until the step ends
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-0.25));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), -1.25);
}

TEST(CoulombViscousFrictionTest, ASineWithEveryChangeOfSignLocated) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="friction_sine" format="1">
  <simulation solver="ode45" t_end="10"/>
  <block type="Sine" name="v" amplitude="2"/>
  <block type="CoulombViscousFriction" name="friction" offset="1" gain="0.5"/>
  <block type="Integrator" name="x"/>
  <connect from="v.y" to="friction.u"/>
  <connect from="friction.y" to="x.u"/>
  <log signal="v.y" as="v"/>
  <log signal="friction.y" as="f"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  const std::vector<double> v = twinblocks::testing::Column(out.recording, "v");
  const std::vector<double> f = twinblocks::testing::Column(out.recording, "f");
  for (size_t k = 0; k < t.size(); ++k) {
    const double sign = v[k] > 0.0 ? 1.0 : (v[k] < 0.0 ? -1.0 : 0.0);
    EXPECT_EQ(f[k], sign * 1.0 + 0.5 * v[k]) << t[k];
  }
  for (double zero : {std::numbers::pi, 2.0 * std::numbers::pi, 3.0 * std::numbers::pi}) {
    double nearest = 1.0;
    for (double tk : t) nearest = std::min(nearest, std::abs(tk - zero));
    EXPECT_LT(nearest, 1e-9) << zero;
  }
}

TEST(CoulombViscousFrictionTest, AllocatesNothingWhileStepping) {
  BlockHarness h("CoulombViscousFriction", {}, {2});
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
