// A mechanism keeps its kinematics and contacts between evaluations at the same q and v
// (Mechanism::EvaluateContacts). Whatever the order of evaluations, each must give what a
// fresh simulator gives at that state: a sphere pressed into a plane and sliding on it.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/blocks/multibody/pressed_sphere.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

// f(x) of a simulator that has evaluated nothing but its start.
Eigen::VectorXd FreshDerivatives(const graph::System& system, const Eigen::VectorXd& x) {
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  Eigen::VectorXd xdot(x.size());
  sim.EvaluateDerivatives(sim.time(), x, &xdot);
  return xdot;
}

TEST(EvaluationCacheTest, EvaluationsInAnyOrderMatchFreshOnes) {
  const graph::System system =
      graph::Compile(xml::ReadModelString(testing::pressed_sphere::PressedSphere(
          "[0.02, 0, 0]", R"(friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3")")));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const Eigen::VectorXd x1 = sim.state().x;
  // Deeper, and sliding the other way.
  Eigen::VectorXd x2 = x1;
  bool moved = false;
  for (int i = 0; i < x1.size(); ++i) {
    const std::string what = system.DescribeState(i);
    if (what.find("position") != std::string::npos && x1[i] != 0.0) {
      x2[i] -= 2e-5;
      moved = true;
    }
    if (what.find("velocity") != std::string::npos && x1[i] != 0.0) x2[i] = -x1[i];
  }
  ASSERT_TRUE(moved);
  const Eigen::VectorXd f1 = FreshDerivatives(system, x1);
  const Eigen::VectorXd f2 = FreshDerivatives(system, x2);
  ASSERT_GT((f1 - f2).norm(), 1.0);  // the two states' forces differ (m/s^2)

  Eigen::VectorXd xdot(x1.size());
  const Eigen::VectorXd* order[] = {&x1, &x1, &x2, &x2, &x1, &x2, &x1};
  for (const Eigen::VectorXd* x : order) {
    sim.EvaluateDerivatives(sim.time(), *x, &xdot);
    EXPECT_EQ(xdot, x == &x1 ? f1 : f2);
  }
}

// A sphere pressed into the ground and a pendulum whose hinge follows a motion input through
// its filter: the top-level inport `angle`, or with `fixed_angle` a Constant of that value.
// With `hanging`, the sphere hangs from the pendulum's bob on a free joint instead, so its
// motion depends on the hinge's.
std::string DrivenAndFree(bool hanging, const std::string& fixed_angle = "") {
  const std::string command =
      fixed_angle.empty() ? R"(<inport name="angle"/><connect from=".angle" to="hinge.motion"/>)"
                          : R"(<block type="Constant" name="angle" value=")" + fixed_angle +
                                R"("/><connect from="angle.y" to="hinge.motion"/>)";
  const std::string sphere_parent = hanging ? "rod.F" : "world.W";
  const std::string position = hanging ? "[0, 0, -0.3]" : "[0, 0, 0.0499]";
  return R"xml(<model name="driven_and_free">
    <simulation solver="ode23s" t_end="0.01" rtol="1e-6"/>)xml" +
         command + R"xml(
    <block type="World" name="world"/>
    <block type="Solid" name="ground" shape="plane"/>
    <block type="FreeJoint" name="free" position0=")xml" +
         position + R"xml(" v0="[0.02, 0, 0]"/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness="1e6" damping="1e3"
           transition_width="0" friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3"
           v_crit="1e-3"/>
    <block type="RigidTransform" name="post" translation="[1, 0, 1]"/>
    <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" actuation="motion"
           filter_tc="0.01"/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="bob" shape="none" mass="2"/>
    <connect from="world.W" to="ground.R"/>
    <connect from=")xml" +
         sphere_parent + R"xml(" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="ground.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
    <connect from="world.W" to="post.B"/>
    <connect from="post.F" to="hinge.B"/>
    <connect from="hinge.F" to="rod.B"/>
    <connect from="rod.F" to="bob.R"/>
  </model>)xml";
}

// A new motion command at the same state (a major step right after the evaluation there)
// may keep the free sphere's acceleration (Mechanism::SameFreeBodyDynamics); every
// evaluation must still give what a simulator of the model with that command built in gives
// (whose first pass has it from the start), also when the sphere hangs below the driven
// hinge, where it may not.
TEST(EvaluationCacheTest, NewMotionCommandAtTheSameStateMatchesFreshEvaluations) {
  for (const bool hanging : {false, true}) {
    SCOPED_TRACE(hanging ? "hanging from the hinge" : "on the ground");
    const graph::System system = graph::Compile(xml::ReadModelString(DrivenAndFree(hanging)));
    const auto fresh = [&](const Eigen::VectorXd& x, double angle) {
      const graph::System built_in =
          graph::Compile(xml::ReadModelString(DrivenAndFree(hanging, std::to_string(angle))));
      graph::Simulator sim(built_in, built_in.settings());
      sim.Initialize();
      Eigen::VectorXd xdot(x.size());
      sim.EvaluateDerivatives(sim.time(), x, &xdot);
      return xdot;
    };
    graph::Simulator sim(system, system.settings());
    sim.Initialize();
    const Eigen::VectorXd x = sim.state().x;
    const graph::InputHandle angle = sim.FindInput("angle");
    Eigen::VectorXd xdot(x.size());
    double previous = 0.0;
    for (const double command : {0.0, 0.3, 0.3, -0.2, 0.0}) {
      const Eigen::VectorXd expected = fresh(x, command);
      if (command != previous) {
        // The command reaches the derivatives: the test could fail.
        EXPECT_NE(expected, fresh(x, previous));
      }
      const double value[] = {command};
      sim.SetInput(angle, value);
      sim.EvaluateDerivatives(sim.time(), x, &xdot);
      EXPECT_EQ(xdot, expected) << "command " << command;
      previous = command;
    }
  }
}

// Within a step an open contact's geometry is left out of evaluations that do not read it
// (Mechanism::EvaluateContacts); rows between major steps that log it must still get it. A
// ball falls onto a plane under ode23s with an output interval finer than its steps: every
// row's distance is the ball's height less its radius, before, during and after contact.
TEST(EvaluationCacheTest, LoggedDistanceOfAnOpenContactHoldsAtEveryRow) {
  const graph::System system = graph::Compile(xml::ReadModelString(R"xml(<model name="drop">
    <simulation solver="ode23s" rtol="1e-6" atol="1e-9" t_end="0.15" output_interval="1e-3"/>
    <block type="World" name="world" gravity="[0, 0, -9.81]"/>
    <block type="Solid" name="ground" shape="plane"/>
    <block type="FreeJoint" name="free" position0="[0, 0, 0.1]"/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness="1e5" damping="100"
           transition_width="0"/>
    <connect from="world.W" to="ground.R"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="ground.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
    <log signal="free.position"/>
    <log signal="contact.distance"/>
  </model>)xml"));
  graph::Simulator sim(system, system.settings());
  const graph::SimulationOutcome outcome = sim.Run();
  ASSERT_TRUE(outcome.ok) << outcome.error;
  const graph::Recording& rec = sim.recording();
  const int z = rec.FindColumn("free.position[2]");
  const int d = rec.FindColumn("contact.distance");
  ASSERT_GE(z, 0);
  ASSERT_GE(d, 0);
  ASSERT_GT(rec.num_rows(), 140);
  int in_contact = 0;
  for (int r = 0; r < rec.num_rows(); ++r) {
    EXPECT_NEAR(rec.value(r, d), rec.value(r, z) - 0.05, 1e-12) << "t = " << rec.time(r);
    in_contact += rec.value(r, d) < 0.0;
  }
  EXPECT_GT(in_contact, 0);  // the ball landed within the run
}

}  // namespace
}  // namespace twinblocks
