// Joint friction (Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using Simscape
// Multibody", eq. 25-26, Simscape Rotational Friction, the reference arm's values of
// docs/multibody.md): (a) the RotationalFriction block, compiled into a mechanism, gives Simscape's
// torque at 20
//     relative velocities spread over +-10 w_brk (zero, both signs, near w_Coul, w_brk and
//     w_St), to 1e-12 relative to T_brk;
// (b) a joint under a slow torque ramp breaks away at T_brk within 1 %: that is
//     Drivetrain.FrictionBreaksAwayAtTheBreakawayTorque in
//     tests/blocks/multibody/mechanism_drivetrain_test.cc (a 1 N m/s ramp on a light joint with
//     these friction values; it reports the torque at breakaway as breakaway_torque_Nm), not
//     repeated here;
// (c) the arm of models/robot6dof/e1_friction.xml (E1 with friction on every joint) keeps its
//     energy balance E(t) - E(0) = W(t), W the work of what the drives deliver to the joints,
//     and friction only dissipates: the applied torques' work exceeds W.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/test_trees.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

// The reference arm's friction, on every joint.
constexpr double kBreakawayTorque = 13.0;   // T_brk, N m
constexpr double kBreakawayVelocity = 0.1;  // w_brk, rad/s
constexpr double kCoulombTorque = 10.0;     // T_C, N m
constexpr double kViscous = 0.001;          // f, N m s/rad

/// Simscape's Rotational Friction torque at relative velocity w (rad/s), N m, written out
/// from its documentation (Boschetti & Sinico 2024 eq. 25-26):
///   T = sqrt(2e) (T_brk - T_C) exp(-(w/w_St)^2) (w/w_St) + T_C tanh(w/w_Coul) + f w,
///   w_St = w_brk sqrt(2), w_Coul = w_brk / 10.
double SimscapeFriction(double w) {
  const double w_st = kBreakawayVelocity * std::sqrt(2.0);
  const double w_coul = kBreakawayVelocity / 10.0;
  return std::sqrt(2.0 * std::numbers::e) * (kBreakawayTorque - kCoulombTorque) *
             std::exp(-(w / w_st) * (w / w_st)) * (w / w_st) +
         kCoulombTorque * std::tanh(w / w_coul) + kViscous * w;
}

std::string Exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

TEST(JointFriction, BlockTorqueMatchesSimscapeAtTwentyVelocities) {
  const double w_brk = kBreakawayVelocity, w_st = w_brk * std::sqrt(2.0);
  const std::vector<double> speeds = {0.0,       1e-3,  -1e-3, w_brk / 10, -w_brk / 10,
                                      0.05,      -0.05, 0.099, w_brk,      -w_brk,
                                      0.101,     w_st,  -w_st, 0.2,        -0.3,
                                      5 * w_brk, -0.5,  0.75,  10 * w_brk, -10 * w_brk};
  ASSERT_EQ(speeds.size(), 20u);
  // One hinge per speed, each starting at that speed: a body of 1 kg m^2 about the axis with
  // its centre of mass on it, no gravity, and the friction between the joint's shaft and the
  // world. At t = 0 the compiled mechanism's derivative is dw/dt = -T(w) / J, and the joint's
  // torque output, what the drivetrain delivers to it, is -T(w).
  std::string xml = R"xml(<model name="friction_curve">
    <simulation solver="ode45" t_end="1e-3" rtol="1e-10" atol="1e-12" output_interval="1e-3"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="RotationalReference" name="ground"/>)xml";
  // One copy per speed: `#` becomes its index, `W0` the speed.
  const std::string hinge_xml = R"xml(
    <block type="RevoluteJoint" name="hinge#" actuation="port" qd0="W0"/>
    <block type="Solid" name="body#" shape="none" mass="1"
           inertia="[[1, 0, 0], [0, 1, 0], [0, 0, 1]]"/>
    <block type="RotationalFriction" name="friction#" brk_torque="13" brk_velocity="0.1"
           coulomb_torque="10" viscous="0.001"/>
    <connect from="world.W" to="hinge#.B"/>
    <connect from="hinge#.F" to="body#.R"/>
    <connect from="hinge#.shaft" to="friction#.R"/>
    <connect from="friction#.C" to="ground.R"/>
    <log signal="hinge#.qd"/><log signal="hinge#.qdd"/><log signal="hinge#.torque"/>)xml";
  for (size_t k = 0; k < speeds.size(); ++k) {
    std::string copy = hinge_xml;
    for (size_t at = copy.find('#'); at != std::string::npos; at = copy.find('#', at)) {
      copy.replace(at, 1, std::to_string(k));
    }
    copy.replace(copy.find("W0"), 2, Exact(speeds[k]));
    xml += copy;
  }
  xml += "\n</model>";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  ASSERT_DOUBLE_EQ(Times(out.recording).front(), 0.0);
  constexpr double kJ = 1.0;  // kg m^2, the body's inertia about the hinge
  double worst = 0.0, worst_output = 0.0, largest = 0.0;
  for (size_t k = 0; k < speeds.size(); ++k) {
    const std::string hinge = "hinge" + std::to_string(k);
    ASSERT_EQ(Column(out.recording, hinge + ".qd").front(), speeds[k]);
    const double expected = SimscapeFriction(speeds[k]);
    const double qdd = Column(out.recording, hinge + ".qdd").front();
    const double torque = Column(out.recording, hinge + ".torque").front();
    worst = std::max(worst, std::abs(-kJ * qdd - expected) / kBreakawayTorque);
    worst_output = std::max(worst_output, std::abs(-torque - expected) / kBreakawayTorque);
    largest = std::max(largest, std::abs(expected));
  }
  EXPECT_GT(largest, 0.99 * kBreakawayTorque);  // the peak is among the speeds
  EXPECT_LT(worst, 1e-12);
  EXPECT_LT(worst_output, 1e-12);
  std::cout << "C2 friction torque, max |J dw/dt + T_simscape(w)| / T_brk over 20 speeds: " << worst
            << " (torque output: " << worst_output << ")\n";
  RecordProperty("max_torque_error_relative_to_T_brk", Figure(worst));
  RecordProperty("max_torque_output_error_relative_to_T_brk", Figure(worst_output));
}

TEST(JointFriction, ArmWithFrictionBalancesEnergyAndDissipates) {
  const RunOutput out = RunModelFile("models/robot6dof/e1_friction.xml", [](auto* s) {
    s->rtol = 1e-10;
    s->atol = 1e-12;
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const mb::KinematicTree tree = mb::testing::ReferenceArm();
  mb::KinematicTreeData data(tree);
  const std::vector<double> t = Times(out.recording);
  ASSERT_NEAR(t.back(), 4.0, 1e-12);
  const auto q = Columns(out.recording, "arm.q", 6);
  const auto qd = Columns(out.recording, "arm.qd", 6);
  const auto torque = Columns(out.recording, "arm.torque", 6);
  const std::vector<double> work = Column(out.recording, "work");
  const std::vector<double> work_in = Column(out.recording, "work_in");
  Eigen::VectorXd qv(6), vv(6);
  double e0 = 0.0, scale = 0.0, worst_balance = 0.0, worst_torque = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    for (int j = 0; j < 6; ++j) {
      qv[j] = q[j][r];
      vv[j] = qd[j][r];
      // What the drive delivers: the applied torque less the friction at the joint's speed.
      const double delivered = 5.0 * std::sin(std::numbers::pi * t[r]) - SimscapeFriction(vv[j]);
      worst_torque = std::max(worst_torque, std::abs(torque[j][r] - delivered));
    }
    mb::ForwardKinematics(tree, &data, qv, vv);
    const double energy = mb::KineticEnergy(tree, data) + mb::PotentialEnergy(tree, data);
    if (r == 0) e0 = energy;
    scale = std::max(scale, std::abs(work[r]));
    worst_balance = std::max(worst_balance, std::abs(energy - e0 - work[r]));
  }
  const double dissipated = work_in.back() - work.back();
  ASSERT_GT(scale, 1.0);  // joints slide under gravity: real work is done
  EXPECT_LT(worst_balance / scale, 1e-6) << "worst |E - E0 - W| = " << worst_balance << " J";
  EXPECT_LT(worst_torque, 1e-9);
  EXPECT_GT(dissipated, 0.0);
  std::cout << "C2 arm with friction over 4 s: max |E - E0 - W| / max |W| = "
            << worst_balance / scale << " (max |W| = " << scale << " J), dissipated by friction "
            << dissipated << " J\n";
  RecordProperty("energy_balance_relative", Figure(worst_balance / scale));
  RecordProperty("dissipated_J", Figure(dissipated));
  RecordProperty("joint_torque_residual_Nm", Figure(worst_torque));
  RecordProperty("steps", std::to_string(out.stats.solver.steps));
}

}  // namespace
}  // namespace twinblocks::testing
