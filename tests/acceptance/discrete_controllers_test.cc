// examples/discrete_controllers.xml: the loop without anti-windup overshoots, the one with
// clamping and set-point weighting does not; the blocks around it (DiscreteDerivative,
// DiscreteFilter, DiscreteIntegrator with a reset) match hand recursions on the logged
// position, and the plant as a DiscreteTransferFunction and as a DiscreteStateSpace agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

constexpr double kExampleTs = 0.05;  // the example's sample time

TEST(DiscreteControllersExample, ClampingStopsTheOvershootOfTheWoundUpLoop) {
  const RunOutput out = RunModelFile("examples/discrete_controllers.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> y_windup = Column(out.recording, "y_windup");
  const std::vector<double> y_clamped = Column(out.recording, "y_clamped");
  const double peak_windup = *std::max_element(y_windup.begin(), y_windup.end());
  const double peak_clamped = *std::max_element(y_clamped.begin(), y_clamped.end());
  RecordProperty("peak_windup", Figure(peak_windup));
  RecordProperty("peak_clamped", Figure(peak_clamped));
  EXPECT_GT(peak_windup, 1.5);
  EXPECT_LT(peak_clamped, 1.01);
  // Both settle on the reference.
  EXPECT_NEAR(y_windup.back(), 1.0, 0.05);
  EXPECT_NEAR(y_clamped.back(), 1.0, 0.01);
}

TEST(DiscreteControllersExample, BlocksAroundTheLoopMatchHandRecursions) {
  const RunOutput out = RunModelFile("examples/discrete_controllers.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> r = Column(out.recording, "r");
  const std::vector<double> y = Column(out.recording, "y_clamped");
  const std::vector<double> speed = Column(out.recording, "speed_clamped");
  const std::vector<double> smooth = Column(out.recording, "y_clamped_smooth");
  const std::vector<double> iae = Column(out.recording, "iae_clamped");
  ASSERT_EQ(t.size(), 161u);  // one row per hit: t = k Ts
  double iae_ref = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    SCOPED_TRACE(k);
    ASSERT_NEAR(t[k], kExampleTs * static_cast<double>(k), 1e-12);
    const double y1 = k >= 1 ? y[k - 1] : 0.0;
    EXPECT_NEAR(speed[k], (y[k] - y1) / kExampleTs, 1e-12);
    double average = 0.0;
    for (size_t j = 0; j < 4; ++j) average += k >= j ? 0.25 * y[k - j] : 0.0;
    EXPECT_NEAR(smooth[k], average, 1e-14);
    // Trapezoidal integral of |r - y| from 0, started again at t = 4 (the reset's rising edge).
    const double abs_e = std::abs(r[k] - y[k]);
    if (k == 0 || std::abs(t[k] - 4.0) < 1e-9) {
      iae_ref = 0.0;
    } else {
      iae_ref += 0.5 * kExampleTs * (abs_e + std::abs(r[k - 1] - y[k - 1]));
    }
    EXPECT_NEAR(iae[k], iae_ref, 1e-12);
  }
}

TEST(DiscreteControllersExample, TransferFunctionAndStateSpacePlantsAgree) {
  // The windup loop with its plant swapped for the clamped loop's DiscreteStateSpace gives
  // the same response: the two blocks realize the same G(z).
  const RunOutput tf = RunModelFile("examples/discrete_controllers.xml");
  ASSERT_TRUE(tf.outcome.ok) << tf.outcome.error;
  const RunOutput ss = RunModelText(R"xml(<?xml version="1.0" encoding="UTF-8"?>
<model name="windup_state_space" format="1">
  <var name="Ts" value="0.05"/>
  <var name="a" value="2"/>
  <var name="p" value="exp(-a*Ts)"/>
  <var name="n1" value="(a*Ts - 1 + p) / a"/>
  <var name="n2" value="(1 - p - a*Ts*p) / a"/>
  <simulation solver="ode3" step="0.05" t_end="8"/>
  <block type="Step" name="reference" time="0.5" after="1"/>
  <block type="Sum" name="error_w" signs="+-"/>
  <block type="DiscretePID" name="pid_w" Kp="3" Ki="2" Ts="Ts" upper="1" lower="-1"/>
  <block type="DiscreteStateSpace" name="motor_w" A="[[1 + p, -p], [1, 0]]" B="[[1], [0]]"
         C="[[n1, n2]]" D="0" Ts="Ts"/>
  <connect from="reference.y" to="error_w.u1"/>
  <connect from="motor_w.y" to="error_w.u2"/>
  <connect from="error_w.y" to="pid_w.e"/>
  <connect from="pid_w.u" to="motor_w.u"/>
  <log signal="motor_w.y" as="y_windup"/>
</model>
)xml");
  ASSERT_TRUE(ss.outcome.ok) << ss.outcome.error;
  const std::vector<double> a = Column(tf.recording, "y_windup");
  const std::vector<double> b = Column(ss.recording, "y_windup");
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k], b[k], 1e-12) << k;
}

}  // namespace
}  // namespace twinblocks::testing
