// Rotational networks compiled into the mechanism: gears merge shafts into the joint's
// coordinate with the rotor's inertia reflected by the ratio squared, torques act by virtual
// work, a shaft of its own integrates, and friction holds until the breakaway torque.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(Drivetrain, ShaftOfItsOwnIntegratesItsTorque) {
  // J phi'' = tau: 2 kg m^2 under 4 N m from rest, phi = t^2.
  const char* xml = R"xml(<model name="shaft">
    <simulation solver="ode45" t_end="2" rtol="1e-10" atol="1e-12" output_interval="0.1"/>
    <block type="RotationalReference" name="ground"/>
    <block type="Inertia" name="flywheel" J="2"/>
    <block type="TorqueSource" name="drive"/>
    <block type="MotionSensor" name="sensor"/>
    <block type="Constant" name="tau" value="4"/>
    <connect from="drive.R" to="flywheel.I"/>
    <connect from="drive.C" to="ground.R"/>
    <connect from="sensor.R" to="flywheel.I"/>
    <connect from="sensor.C" to="ground.R"/>
    <connect from="tau.y" to="drive.tau"/>
    <log signal="sensor.phi"/><log signal="sensor.w"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto t = Times(out.recording);
  const auto phi = Column(out.recording, "sensor.phi"), w = Column(out.recording, "sensor.w");
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_NEAR(phi[i], t[i] * t[i], 1e-9);
    EXPECT_NEAR(w[i], 2 * t[i], 1e-9);
  }
}

TEST(Drivetrain, GearReflectsTheRotorInertiaOntoTheJoint) {
  // A wheel on a hinge (no gravity), driven through a gear of ratio n by a rotor J_m under a
  // motor torque tau_m: (I + n^2 J_m) q'' = n tau_m.
  const char* xml = R"xml(<model name="geared">
    <simulation solver="ode45" t_end="1" rtol="1e-11" atol="1e-12" output_interval="0.05"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="RevoluteJoint" name="hinge" actuation="port"/>
    <block type="Solid" name="wheel" shape="cylinder" radius="0.2" length="0.05" mass="4"/>
    <block type="SimpleGear" name="gear" ratio="50"/>
    <block type="Inertia" name="rotor" J="3e-4"/>
    <block type="TorqueSource" name="motor"/>
    <block type="RotationalReference" name="stator"/>
    <block type="Constant" name="tau_m" value="0.2"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="wheel.R"/>
    <connect from="hinge.shaft" to="gear.F"/>
    <connect from="gear.B" to="rotor.I"/>
    <connect from="gear.B" to="motor.R"/>
    <connect from="motor.C" to="stator.R"/>
    <connect from="tau_m.y" to="motor.tau"/>
    <log signal="hinge.q"/><log signal="hinge.torque"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double I = 0.5 * 4 * 0.04, n = 50, Jm = 3e-4, tau = 0.2;
  const double qdd = n * tau / (I + n * n * Jm);
  const auto t = Times(out.recording);
  const auto q = Column(out.recording, "hinge.q");
  const auto torque = Column(out.recording, "hinge.torque");
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_NEAR(q[i], 0.5 * qdd * t[i] * t[i], 1e-9);
    EXPECT_NEAR(torque[i], n * tau, 1e-12);  // what the drivetrain delivers to the joint
  }
}

TEST(Drivetrain, CompliantCouplingKeepsTwoCoordinates) {
  // A wheel on a hinge coupled by a torsion spring to a rotor of its own, driven by a constant
  // torque: the two-mass oscillator. With theta_c the inertia-weighted mean angle and r the
  // spring's twist, theta_c = tau t^2 / (2 (I + J)), r = tau / (J w^2) (1 - cos w t),
  // w^2 = k (1/I + 1/J), and the hinge turns by q = theta_c - J r / (I + J).
  const char* xml = R"xml(<model name="coupled">
    <simulation solver="ode45" t_end="1" rtol="1e-11" atol="1e-13" output_interval="0.01"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="RevoluteJoint" name="hinge" actuation="port"/>
    <block type="Solid" name="wheel" shape="cylinder" radius="0.2" length="0.05" mass="4"/>
    <block type="RotationalSpringDamper" name="coupling" k="50" c="0"/>
    <block type="Inertia" name="rotor" J="0.02"/>
    <block type="TorqueSource" name="motor"/>
    <block type="RotationalReference" name="stator"/>
    <block type="MotionSensor" name="twist"/>
    <block type="Constant" name="tau" value="0.3"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="wheel.R"/>
    <connect from="hinge.shaft" to="coupling.C"/>
    <connect from="coupling.R" to="rotor.I"/>
    <connect from="motor.R" to="rotor.I"/>
    <connect from="motor.C" to="stator.R"/>
    <connect from="twist.R" to="rotor.I"/>
    <connect from="twist.C" to="hinge.shaft"/>
    <connect from="tau.y" to="motor.tau"/>
    <log signal="hinge.q"/><log signal="twist.phi"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double I = 0.5 * 4 * 0.04, J = 0.02, k = 50, tau = 0.3;
  const double w = std::sqrt(k * (1 / I + 1 / J));
  const auto t = Times(out.recording);
  const auto q = Column(out.recording, "hinge.q"), r = Column(out.recording, "twist.phi");
  for (size_t i = 0; i < t.size(); ++i) {
    const double twist = tau / (J * w * w) * (1 - std::cos(w * t[i]));
    const double mean = tau * t[i] * t[i] / (2 * (I + J));
    EXPECT_NEAR(r[i], twist, 1e-9);
    EXPECT_NEAR(q[i], mean - J * twist / (I + J), 1e-9);
  }
}

TEST(Drivetrain, FrictionBreaksAwayAtTheBreakawayTorque) {
  // A slow torque ramp on a light joint with the reference arm's friction: it creeps below
  // w_brk and breaks away when the torque reaches T_brk (13 N m).
  const char* xml = R"xml(<model name="breakaway">
    <simulation solver="ode45" t_end="16" rtol="1e-9" atol="1e-12" max_step="1e-3"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="RevoluteJoint" name="hinge" actuation="port"/>
    <block type="Solid" name="link" shape="sphere" radius="0.05" mass="1" com="[0.1, 0, 0]"/>
    <block type="RotationalFriction" name="friction" brk_torque="13" brk_velocity="0.1"
           coulomb_torque="10" viscous="0.001"/>
    <block type="TorqueSource" name="drive"/>
    <block type="RotationalReference" name="base"/>
    <block type="Ramp" name="ramp" slope="1"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="link.R"/>
    <connect from="hinge.shaft" to="friction.R"/>
    <connect from="friction.C" to="base.R"/>
    <connect from="hinge.shaft" to="drive.R"/>
    <connect from="drive.C" to="base.R"/>
    <connect from="ramp.y" to="drive.tau"/>
    <log signal="hinge.qd"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto t = Times(out.recording);
  const auto qd = Column(out.recording, "hinge.qd");
  double breakaway = -1.0;
  for (size_t i = 1; i < t.size(); ++i) {
    // Past the Stribeck peak the joint runs away: its speed passes 3 w_brk.
    if (qd[i] > 0.3) {
      breakaway = t[i];
      break;
    }
  }
  ASSERT_GT(breakaway, 0.0) << "never broke away";
  EXPECT_NEAR(breakaway, 13.0, 0.13);  // the ramp's torque at that moment, within 1 %
  RecordProperty("breakaway_torque_Nm", Figure(breakaway));
}

}  // namespace
}  // namespace twinblocks::testing
