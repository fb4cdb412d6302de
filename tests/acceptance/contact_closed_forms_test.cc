// SpatialContactForce against closed forms.
//
// D1: a sphere hits a plane with linear Kelvin-Voigt contact and no transition region. During
// contact the penetration x obeys m x'' + c x' + k x = 0 (x(0) = 0, x'(0) = v0), the
// underdamped oscillator x = v0/wd e^(-zeta w t) sin(wd t). The block's force never pulls, so
// contact ends where k x + c x' = 0, which gives
//   tan(wd tc) = -2 zeta sqrt(1 - zeta^2) / (1 - 2 zeta^2),
//   e = e^(-zeta w tc) |cos(wd tc) - zeta w / wd sin(wd tc)|
// (Schwager & Poeschel, Phys. Rev. E 2007, for the force-free end of a linear dashpot contact).
//
// D2: a box on an incline rests on four corner contacts with smooth stick-slip friction. Below
// tan(theta) = mu_s it is held (it creeps slower than v_crit); above, once it slides faster than
// 2 v_crit, its acceleration is g (sin(theta) - mu_d cos(theta)).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

constexpr double kPi = std::numbers::pi;

std::string BallOnPlane(double k, double c, double v0, double gap, const std::string& solver) {
  return R"xml(<model name="d1">
    <simulation solver=")xml" +
         solver + R"xml(" t_end="0.04" rtol="1e-10" atol="1e-12" max_step="1e-5"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="Solid" name="ground" shape="plane"/>
    <block type="FreeJoint" name="free" position0="[0, 0, )xml" +
         std::to_string(0.05 + gap) + R"xml(]" v0="[0, 0, )xml" + std::to_string(-v0) +
         R"xml(]"/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness=")xml" +
         std::to_string(k) + R"xml(" damping=")xml" + std::to_string(c) +
         R"xml(" transition_width="0"/>
    <connect from="world.W" to="ground.R"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="ground.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
    <log signal="free.v"/>
    <log signal="contact.fn"/>
    <log signal="contact.distance"/>
  </model>)xml";
}

struct Rebound {
  double restitution;  ///< e = v_out / v_in
  double duration;     ///< s, time with fn > 0
};

/// The linear spring-damper's rebound when contact ends at zero force.
Rebound ClosedFormRebound(double m, double k, double c) {
  const double w = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  const double wd = w * std::sqrt(1.0 - zeta * zeta);
  const double tc =
      (kPi - std::atan(2.0 * zeta * std::sqrt(1.0 - zeta * zeta) / (1.0 - 2.0 * zeta * zeta))) / wd;
  const double e =
      std::exp(-zeta * w * tc) * std::abs(std::cos(wd * tc) - zeta * w / wd * std::sin(wd * tc));
  return {e, tc};
}

/// Duration of the force pulse: from the first to the last row with fn > 0, each end refined
/// to where the force's straight-line continuation through its two nearest samples is zero.
double PulseDuration(const std::vector<double>& t, const std::vector<double>& fn) {
  size_t first = 0, last = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (fn[i] > 0.0) {
      if (first == 0) first = i;
      last = i;
    }
  }
  EXPECT_GT(first, 0u);
  EXPECT_GT(last, first + 2);
  // The pulse starts at a located crossing (the force jumps to c v0 there): that row's time.
  const double start = t[first];
  const double slope = (fn[last] - fn[last - 1]) / (t[last] - t[last - 1]);
  const double end = t[last] - fn[last] / slope;
  return end - start;
}

TEST(SphereOnPlane, ReboundMatchesTheLinearSpringDamper) {
  const double m = 1.0, v0 = 1.0, gap = 0.01;
  for (const auto& [k, c] : {std::pair{1e5, 20.0}, std::pair{1e5, 200.0}, std::pair{1e6, 300.0}}) {
    const Rebound expected = ClosedFormRebound(m, k, c);
    const RunOutput out = RunModelText(BallOnPlane(k, c, v0, gap, "ode45"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> vz = Column(out.recording, "free.v[2]");
    const std::vector<double> fn = Column(out.recording, "contact.fn");
    const double restitution = vz.back() / v0;
    const double duration = PulseDuration(t, fn);
    const std::string key = "k" + Figure(k) + "_c" + Figure(c);
    RecordProperty(key + "_restitution",
                   Figure(restitution) + " (closed form " + Figure(expected.restitution) + ")");
    RecordProperty(key + "_duration",
                   Figure(duration) + " s (closed form " + Figure(expected.duration) + " s)");
    EXPECT_NEAR(restitution, expected.restitution, 0.01 * expected.restitution)
        << "k " << k << " c " << c;
    EXPECT_NEAR(duration, expected.duration, 0.01 * expected.duration) << "k " << k << " c " << c;
    // Onset is located as a zero crossing of the distance: the pulse starts at gap / v0.
    size_t first = 0;
    while (fn[first] == 0.0) ++first;
    EXPECT_NEAR(t[first], gap / v0, 1e-9);
    EXPECT_GT(out.stats.solver.zero_crossings, 0);
  }
}

std::string BoxOnIncline(double theta, double t_end) {
  return R"xml(<model name="d2">
    <simulation solver="cvode-bdf" t_end=")xml" +
         std::to_string(t_end) + R"xml(" rtol="1e-7" atol="1e-9" max_step="1e-3"/>
    <var name="theta" value=")xml" +
         std::to_string(theta) + R"xml("/>
    <block type="World" name="world"/>
    <block type="RigidTransform" name="tilt" rotation="axis_angle" axis="[0, 1, 0]" angle="theta"/>
    <block type="Solid" name="incline" shape="plane"/>
    <block type="FreeJoint" name="free" position0="[0, 0, 0.025]"/>
    <block type="Solid" name="box" shape="box" size="[0.1, 0.1, 0.05]" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness="1e6" damping="1e3"
           transition_width="0" friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3"/>
    <block type="TransformSensor" name="sensor"/>
    <connect from="world.W" to="tilt.B"/>
    <connect from="tilt.F" to="incline.R"/>
    <connect from="tilt.F" to="free.B"/>
    <connect from="free.F" to="box.R"/>
    <connect from="incline.R" to="contact.B"/>
    <connect from="box.R" to="contact.F"/>
    <connect from="tilt.F" to="sensor.B"/>
    <connect from="box.R" to="sensor.F"/>
    <log signal="sensor.position"/>
    <log signal="sensor.v"/>
    <log signal="contact.fn"/>
  </model>)xml";
}

TEST(BoxOnIncline, HeldBelowTheStaticCoefficient) {
  const double theta = std::atan(0.45);  // needs mu = 0.45 < mu_s = 0.5
  const RunOutput out = RunModelText(BoxOnIncline(theta, 1.0));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> vx = Column(out.recording, "sensor.v[0]");
  const std::vector<double> fn = Column(out.recording, "contact.fn");
  double worst = 0.0;
  for (double v : vx) worst = std::max(worst, std::abs(v));
  RecordProperty("max_slope_speed", Figure(worst));
  EXPECT_LT(worst, 1e-3) << "the box slid: its speed along the slope exceeded v_crit";
  // It rests on its four corners with the weight's normal component.
  EXPECT_NEAR(fn.back(), 9.81 * std::cos(theta), 1e-3 * 9.81);
}

TEST(BoxOnIncline, SlidesAboveItWithTheDynamicCoefficient) {
  const double theta = std::atan(0.6);
  const RunOutput out = RunModelText(BoxOnIncline(theta, 0.6));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> vx = Column(out.recording, "sensor.v[0]");
  // Gravity pulls along +x of the frame tilted about y: down the slope. Acceleration from the speed
  // between two times well after the box passed 2 v_crit.
  auto speed_at = [&](double when) {
    size_t i = 0;
    while (i + 1 < t.size() && t[i + 1] < when) ++i;
    const double a = (when - t[i]) / (t[i + 1] - t[i]);
    return vx[i] + a * (vx[i + 1] - vx[i]);
  };
  ASSERT_GT(speed_at(0.2), 2e-3);
  const double measured = (speed_at(0.55) - speed_at(0.25)) / 0.3;
  const double expected = 9.81 * (std::sin(theta) - 0.3 * std::cos(theta));
  RecordProperty("sliding_acceleration", Figure(measured));
  EXPECT_NEAR(measured, expected, 0.01 * expected);
}

}  // namespace
}  // namespace twinblocks::testing
