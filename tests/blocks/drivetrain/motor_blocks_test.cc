// DCMotor and PMSM as blocks of a rotational network: their electrical states
// run inside the mechanism and their rotor inertia reflects like an Inertia's. Wrong wiring
// (C6) is checked through the CLI in tests/acceptance/bad_models_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "physics/drivetrain/dc_motor_model.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/dc_motor_step_response.h"

namespace twinblocks::testing {
namespace {

TEST(MotorBlocks, DCMotorStepMatchesItsClosedForm) {
  // 24 V on a motor whose rotor also turns a load inertia: J = J_rotor + J_load in the closed
  // form. Underdamped (about -50 +- 132j 1/s), 0.4 s.
  const char* xml = R"xml(<model name="dc_step">
    <simulation solver="ode45" t_end="0.4" rtol="1e-12" atol="1e-13" output_interval="1e-3"/>
    <block type="DCMotor" name="motor" R="0.5" L="5e-3" Kt="0.1" Ke="0.1" J="4e-5" b="1e-5"/>
    <block type="Inertia" name="load" J="6e-5"/>
    <block type="RotationalReference" name="mount"/>
    <block type="Constant" name="v" value="24"/>
    <connect from="motor.R" to="load.I"/>
    <connect from="motor.C" to="mount.R"/>
    <connect from="v.y" to="motor.v"/>
    <log signal="motor.i"/><log signal="motor.w"/><log signal="motor.tau"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const drivetrain::DCMotorParameters p{0.5, 5e-3, 0.1, 0.1, 1e-4, 1e-5};
  const auto t = Times(out.recording);
  const auto i = Column(out.recording, "motor.i"), w = Column(out.recording, "motor.w");
  const auto tau = Column(out.recording, "motor.tau");
  double worst_i = 0.0, worst_w = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    const Eigen::Vector2d ref = DCMotorStepResponse(p, 24.0, t[k]);
    worst_i = std::max(worst_i, std::abs(i[k] - ref[0]));
    worst_w = std::max(worst_w, std::abs(w[k] - ref[1]));
    EXPECT_NEAR(tau[k], p.Kt * i[k], 1e-15 + 1e-15 * std::abs(tau[k]));
  }
  EXPECT_LT(worst_i, 1e-8) << "A";
  EXPECT_LT(worst_w, 1e-8) << "rad/s";
  RecordProperty("max_current_error_A", Figure(worst_i));
  RecordProperty("max_speed_error_rad_s", Figure(worst_w));
}

/// A PMSM of the reference arm (Boschetti & Sinico 2024) under FOC, turning a flywheel: the torque
/// command steps to `tau_ref` at t = 1 ms.
RunOutput RunPmsmStep(double tau_ref, double t_end) {
  const std::string xml = R"xml(<model name="pmsm_step">
    <simulation solver="ode45" t_end=")xml" +
                          std::to_string(t_end) +
                          R"xml(" rtol="1e-10" atol="1e-12" output_interval="1e-5"/>
    <block type="PMSM" name="motor" J="3.3e-4" mode="foc"/>
    <block type="Inertia" name="load" J="0.05"/>
    <block type="RotationalReference" name="mount"/>
    <block type="Step" name="command" time="1e-3" before="0" after=")xml" +
                          std::to_string(tau_ref) + R"xml("/>
    <connect from="motor.R" to="load.I"/>
    <connect from="motor.C" to="mount.R"/>
    <connect from="command.y" to="motor.tau_ref"/>
    <log signal="motor.idq"/><log signal="motor.tau"/><log signal="motor.w"/>
    <log signal="motor.vdq"/>
  </model>)xml";
  return RunModelText(xml);
}

TEST(MotorBlocks, PmsmFollowsATorqueStepWithinAMillisecond) {
  const RunOutput out = RunPmsmStep(2.0, 4e-3);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto t = Times(out.recording);
  const auto tau = Column(out.recording, "motor.tau");
  const auto id = Column(out.recording, "motor.idq[0]"), iq = Column(out.recording, "motor.idq[1]");
  double settled = -1.0, max_id = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    max_id = std::max(max_id, std::abs(id[k]));
    if (t[k] < 1e-3) continue;
    if (std::abs(tau[k] - 2.0) > 0.02 * 2.0) {
      settled = -1.0;
    } else if (settled < 0.0) {
      settled = t[k] - 1e-3;
    }
  }
  ASSERT_GT(settled, 0.0) << "never within 2 % of the command";
  EXPECT_LT(settled, 1e-3);
  // First order at the loop's 2 kHz bandwidth: ln(50) / (2 pi 2000) = 0.311 ms.
  EXPECT_NEAR(settled, std::log(50.0) / (2.0 * std::numbers::pi * 2000.0), 2e-5);
  EXPECT_LT(max_id, 1e-3 * std::abs(iq.back())) << "i_d stays near 0";
  RecordProperty("time_to_2_percent_s", Figure(settled));
  RecordProperty("max_abs_id_A", Figure(max_id));
}

TEST(MotorBlocks, PmsmNeverExceedsItsCurrentOrVoltageLimit) {
  // 10 N m asks for 33 A: the command clamps at 20 A (6 N m), the first instants ask more
  // than the inverter's 173 V.
  const RunOutput out = RunPmsmStep(10.0, 20e-3);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto id = Column(out.recording, "motor.idq[0]"), iq = Column(out.recording, "motor.idq[1]");
  const auto vd = Column(out.recording, "motor.vdq[0]"), vq = Column(out.recording, "motor.vdq[1]");
  const auto tau = Column(out.recording, "motor.tau");
  double max_i = 0.0, max_v = 0.0;
  for (size_t k = 0; k < id.size(); ++k) {
    max_i = std::max(max_i, std::hypot(id[k], iq[k]));
    max_v = std::max(max_v, std::hypot(vd[k], vq[k]));
  }
  const double v_max = 300.0 / std::sqrt(3.0);
  EXPECT_LE(max_i, 20.0 * (1.0 + 1e-9));
  EXPECT_LE(max_v, v_max * (1.0 + 1e-12));
  EXPECT_GT(max_v, v_max * (1.0 - 1e-9)) << "the step was meant to reach the voltage limit";
  EXPECT_NEAR(tau.back(), 6.0, 1e-3);  // 1.5 p psi i_max
  RecordProperty("max_current_A", Figure(max_i));
  RecordProperty("max_voltage_V", Figure(max_v));
}

TEST(MotorBlocks, PmsmThroughAGearDrivesAJoint) {
  // The reference arm's joint-1 drive on a wheel: rotor inertia reflects by n^2 and the
  // motor's torque arrives multiplied by n. (I + n^2 J_m) q'' = n tau, with tau the motor's
  // logged torque, checked through the joint's own torque output.
  const char* xml = R"xml(<model name="geared_pmsm">
    <simulation solver="ode45" t_end="0.05" rtol="1e-10" atol="1e-12" output_interval="1e-3"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="RevoluteJoint" name="hinge" actuation="port"/>
    <block type="Solid" name="wheel" shape="cylinder" radius="0.2" length="0.05" mass="4"/>
    <block type="SimpleGear" name="gear" ratio="80"/>
    <block type="PMSM" name="motor" J="3.3e-4"/>
    <block type="RotationalReference" name="mount"/>
    <block type="Constant" name="command" value="1"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="wheel.R"/>
    <connect from="hinge.shaft" to="gear.F"/>
    <connect from="gear.B" to="motor.R"/>
    <connect from="motor.C" to="mount.R"/>
    <connect from="command.y" to="motor.tau_ref"/>
    <log signal="hinge.qd"/><log signal="hinge.qdd"/><log signal="hinge.torque"/>
    <log signal="motor.tau"/><log signal="motor.w"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double I = 0.5 * 4 * 0.04, n = 80, Jm = 3.3e-4;
  const auto qd = Column(out.recording, "hinge.qd"), qdd = Column(out.recording, "hinge.qdd");
  const auto torque = Column(out.recording, "hinge.torque");
  const auto tau = Column(out.recording, "motor.tau"), w = Column(out.recording, "motor.w");
  for (size_t k = 0; k < qd.size(); ++k) {
    EXPECT_NEAR(w[k], n * qd[k], 1e-12 * std::max(1.0, std::abs(w[k])));
    // The joint sees n tau less what accelerates the rotor.
    EXPECT_NEAR(torque[k], n * tau[k], 1e-9);
    EXPECT_NEAR((I + n * n * Jm) * qdd[k], n * tau[k], 1e-9);
  }
  EXPECT_NEAR(tau.back(), 1.0, 1e-3);
}

}  // namespace
}  // namespace twinblocks::testing
