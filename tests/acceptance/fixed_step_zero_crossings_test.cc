// Zero crossings located inside fixed steps (fixed_step_zero_crossings, Simulink's "Enable
// zero-crossing detection for fixed-step simulation"): events at their own times rather than
// at the end of the step they fall in, for ode1 ... ode5, ode1be and ros2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

std::string Ball(const std::string& solver, const std::string& zc) {
  return R"(<model name="ball" format="1">
  <simulation solver=")" +
         solver + R"(" step="1e-3" t_end="20" fixed_step_zero_crossings=")" + zc + R"("/>
  <block type="Constant" name="gravity" value="-9.81"/>
  <block type="SecondOrderIntegrator" name="ball" x0="10" lower="0" reinit_dx="true"/>
  <block type="Gain" name="restitution" k="-0.8"/>
  <connect from="gravity.y" to="ball.u"/>
  <connect from="ball.dx" to="restitution.u"/>
  <connect from="restitution.y" to="ball.dx_reinit"/>
  <log signal="ball.x" as="h"/>
  <log signal="ball.dx" as="v"/>
</model>)";
}

struct Bounces {
  double first_impact = -1.0;  ///< s, the first row at the floor
  double rest = -1.0;          ///< s, the last row where the ball moves
  double lowest = 0.0;         ///< m
};

Bounces RunBall(const std::string& solver, const std::string& zc) {
  const RunOutput out = RunModelText(Ball(solver, zc));
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> h = Column(out.recording, "h");
  const std::vector<double> v = Column(out.recording, "v");
  Bounces b;
  for (size_t i = 0; i < t.size(); ++i) {
    if (b.first_impact < 0.0 && h[i] == 0.0) b.first_impact = t[i];
    if (h[i] != 0.0 || v[i] != 0.0) b.rest = t[i];
    b.lowest = std::min(b.lowest, h[i]);
  }
  return b;
}

class FixedStepBall : public ::testing::TestWithParam<const char*> {};

// A ball dropped from 10 m, restitution 0.8, at a fixed step of 1e-3 s. Located, the first
// impact lands on sqrt(2 h / g) (the row is the located crossing's) and the bounces come to
// rest at the Zeno time 9 sqrt(2 h / g) within 1e-9 s (measured 1.1e-11 s early for ode3,
// ode4, ode5 and ros2); at the end of the step it falls in, the impact is up to a step late
// and the ball never comes to rest in 20 s (each bounce gains what the overshoot added).
TEST_P(FixedStepBall, BouncesAtTheirOwnTimesAndRestsAtTheZenoTime) {
  const double fall = std::sqrt(2.0 * 10.0 / 9.81);
  const Bounces located = RunBall(GetParam(), "on");
  EXPECT_NEAR(located.first_impact, fall, 1e-9);
  EXPECT_NEAR(located.rest, 9.0 * fall, 1e-9);
  EXPECT_GE(located.lowest, 0.0);
  const Bounces late = RunBall(GetParam(), "off");
  EXPECT_GT(late.first_impact - fall, 1e-4);
  EXPECT_GT(late.rest, 19.9);
  RecordProperty("rest_error_s", Figure(located.rest - 9.0 * fall));
}

INSTANTIATE_TEST_SUITE_P(Solvers, FixedStepBall, ::testing::Values("ode3", "ode4", "ode5", "ros2"));

// A limited integrator, x' = 1 from 0 up to 0.55, with steps of 0.1 s: located, it reaches its
// limit at t = 0.55 (a row there), and holds from then on; every solver of the fixed-step
// family, the first-order ones included (x is linear in t, so each of them is exact).
TEST(FixedStepZeroCrossings, LimitedIntegratorStopsAtItsLimitInsideAStep) {
  for (const char* solver : {"ode1", "ode2", "ode3", "ode4", "ode5", "ode1be", "ros2"}) {
    SCOPED_TRACE(solver);
    const RunOutput out = RunModelText(std::string(R"(<model name="limit" format="1">
  <simulation solver=")") + solver + R"(" step="0.1" t_end="1" fixed_step_zero_crossings="on"/>
  <block type="Constant" name="rate" value="1"/>
  <block type="Integrator" name="x" upper="0.55"/>
  <connect from="rate.y" to="x.u"/>
  <log signal="x.y" as="x"/>
</model>)");
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> x = Column(out.recording, "x");
    const auto at_limit = std::find(x.begin(), x.end(), 0.55);
    ASSERT_NE(at_limit, x.end());
    EXPECT_NEAR(t[at_limit - x.begin()], 0.55, 1e-12);
    for (size_t i = 0; i < t.size(); ++i) {
      EXPECT_NEAR(x[i], std::min(t[i], 0.55), 1e-12) << "t = " << t[i];
    }
    // The grid starts again at the crossing: 0.55, 0.65, ... (and lands on t_end).
    EXPECT_NEAR(t[at_limit - x.begin() + 1], 0.65, 1e-12);
    EXPECT_EQ(t.back(), 1.0);
  }
}

TEST(FixedStepZeroCrossings, SettingIsOnOrOff) {
  try {
    RunModelText(R"(<model name="m" format="1">
  <simulation solver="ode3" fixed_step_zero_crossings="yes"/>
  <block type="Constant" name="c" value="1"/>
</model>)");
    ADD_FAILURE() << "compiled";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("simulation attribute 'fixed_step_zero_crossings' must "
                                         "be on or off, got 'yes'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace twinblocks::testing
