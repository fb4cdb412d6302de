// Multibody parameters retuned on a compiled System (masses and inertias, joint springs and
// dampers, gear ratios, friction, contact laws): the mechanism is patched with the new numbers
// or built again from its elements, and a run gives bitwise what a recompile with the new
// values gives.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "tests/support/model_error_matchers.h"
#include "tests/support/recorded_values.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using test_support::ErrorOf;
using test_support::RecordedValues;

Model LoadModel(const std::string& relative) {
  return xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/" + relative);
}

// A pendulum on a damped, sprung joint with friction, geared to a motor inertia, held by a
// spring, with a ball that falls on a floor: a mass, a joint's spring and damper, a gear ratio,
// a rotor inertia, a friction torque, a spring constant and a contact law.
const char kPendulum[] = R"(<model name="pendulum" format="1">
  <simulation solver="ode45" t_end="0.6" rtol="1e-8" atol="1e-10" output_interval="0.01"/>
  <var name="k_floor" value="1e4"/>
  <block type="World" name="world"/>
  <block type="RevoluteJoint" name="hinge" actuation="port" stiffness="0.5" damping="0.05"
         q0="0.4"/>
  <block type="RigidTransform" name="arm" translation="[0.3, 0, 0]"/>
  <block type="Solid" name="bob" shape="sphere" radius="0.05" mass="1.2"/>
  <block type="SimpleGear" name="gear" ratio="5"/>
  <block type="Inertia" name="rotor" J="1e-4"/>
  <block type="RigidTransform" name="drop" translation="[0, 0, 0.5]"/>
  <block type="FreeJoint" name="free"/>
  <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="0.2"/>
  <block type="Solid" name="floor" shape="plane"/>
  <block type="SpatialContactForce" name="contact" stiffness="k_floor" damping="20"
         transition_width="1e-4"/>
  <block type="RotationalFriction" name="friction" brk_torque="0.03" coulomb_torque="0.02"/>
  <block type="RotationalReference" name="case"/>
  <block type="InternalForce" name="spring" mode="spring_damper" k="20" c="0.1" length0="0.2"/>
  <connect from="world.W" to="hinge.B"/>
  <connect from="hinge.F" to="arm.B"/>
  <connect from="arm.F" to="bob.R"/>
  <connect from="hinge.shaft" to="gear.F"/>
  <connect from="gear.B" to="rotor.I"/>
  <connect from="world.W" to="drop.B"/>
  <connect from="drop.F" to="free.B"/>
  <connect from="free.F" to="ball.R"/>
  <connect from="world.W" to="floor.R"/>
  <connect from="floor.R" to="contact.B"/>
  <connect from="ball.R" to="contact.F"/>
  <connect from="hinge.shaft" to="friction.R"/>
  <connect from="friction.C" to="case.R"/>
  <connect from="world.W" to="spring.B"/>
  <connect from="arm.F" to="spring.F"/>
  <log signal="hinge.q"/>
  <log signal="free.position"/>
  <log signal="contact.fn"/>
</model>)";

TEST(MechanismTuningTest, ElementParametersEqualRecompile) {
  Model m = xml::ReadModelString(kPendulum, "pendulum.xml");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  system.SetParameter("bob", "mass", 2.5);
  system.SetParameter("hinge", "damping", 0.2);
  system.SetParameter("hinge", "stiffness", 1.5);
  system.SetParameter("gear", "ratio", 7.0);
  system.SetParameter("rotor", "J", 3e-4);
  system.SetParameter("contact", "damping", 35.0);
  m.SetParam("bob", "mass", 2.5);
  m.SetParam("hinge", "damping", 0.2);
  m.SetParam("hinge", "stiffness", 1.5);
  m.SetParam("gear", "ratio", 7.0);
  m.SetParam("rotor", "J", 3e-4);
  m.SetParam("contact", "damping", 35.0);
  const std::vector<double> tuned = RecordedValues(system);
  ASSERT_FALSE(tuned.empty());
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
}

struct OneParameter {
  std::string name, block, param;
  double value;
};

void PrintTo(const OneParameter& p, std::ostream* os) { *os << p.name; }

class MechanismParameterTest : public ::testing::TestWithParam<OneParameter> {};

// Each kind of parameter alone: those the mechanism patches in place (a contact's law, a
// joint's spring and damper, a friction torque, a spring constant) and those it is built again
// for (a mass, a gear ratio, a rotor inertia), each bitwise like a recompile.
TEST_P(MechanismParameterTest, RetunedAloneEqualsRecompile) {
  const OneParameter& p = GetParam();
  Model m = xml::ReadModelString(kPendulum, "pendulum.xml");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  system.SetParameter(p.block, p.param, p.value);
  m.SetParam(p.block, p.param, p.value);
  const std::vector<double> tuned = RecordedValues(system);
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
}

INSTANTIATE_TEST_SUITE_P(
    Pendulum, MechanismParameterTest,
    ::testing::Values(OneParameter{"ContactStiffness", "contact", "stiffness", 3e4},
                      OneParameter{"ContactDamping", "contact", "damping", 35.0},
                      OneParameter{"JointDamping", "hinge", "damping", 0.2},
                      OneParameter{"JointStiffness", "hinge", "stiffness", 1.5},
                      OneParameter{"JointStop", "hinge", "lower", 0.3},
                      OneParameter{"CoulombFriction", "friction", "coulomb_torque", 0.025},
                      OneParameter{"SpringConstant", "spring", "k", 45.0},
                      OneParameter{"Mass", "bob", "mass", 2.5},
                      OneParameter{"GearRatio", "gear", "ratio", 7.0},
                      OneParameter{"RotorInertia", "rotor", "J", 3e-4}),
    [](const ::testing::TestParamInfo<OneParameter>& info) { return info.param.name; });

TEST(MechanismTuningTest, VariableReachingAContactEqualsRecompile) {
  Model m = xml::ReadModelString(kPendulum, "pendulum.xml");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  EXPECT_EQ(system.SetVariable("k_floor", 3e4), std::vector<std::string>{"contact"});
  m.SetVariable("k_floor", "3e4");
  const std::vector<double> tuned = RecordedValues(system);
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
  // Tuned back, the first results return.
  system.SetVariable("k_floor", 1e4);
  EXPECT_EQ(RecordedValues(system), before);
}

TEST(MechanismTuningTest, RefusedValuesChangeNothing) {
  Model m = xml::ReadModelString(kPendulum, "pendulum.xml");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  EXPECT_CONTAINS(ErrorOf([&] { system.SetParameter("bob", "mass", -1.0); }),
                  "block 'bob' (Solid): ");
  EXPECT_CONTAINS(ErrorOf([&] { system.SetParameter("gear", "ratio", 0.0); }),
                  "block 'gear' (SimpleGear): parameter 'ratio' must be non-zero");
  EXPECT_CONTAINS(ErrorOf([&] {
                    system.SetParameter("hinge", "damping", {1.0, 2.0});
                  }),
                  "block 'hinge' (RevoluteJoint): ");
  EXPECT_CONTAINS(ErrorOf([&] { system.SetParameter("hinge", "actuation", 1.0); }),
                  "is a word or text, not a number: it is not tunable");
  EXPECT_EQ(RecordedValues(system), before);
}

// The twin's friction (Boschetti & Sinico 2024's Stribeck, Coulomb and viscous friction, on
// all six joints through the model's variables) retuned like a recompile.
TEST(MechanismTuningTest, TwinFrictionEqualsRecompile) {
  Model m = LoadModel("models/robot6dof/twin.xml");
  m.simulation.Set("t_end", "0.05");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  // The six drives' friction elements and the controller's friction compensation.
  const std::vector<std::string> rebuilt = system.SetVariable("T_C", 12.0);
  EXPECT_EQ(rebuilt.size(), 7u);
  system.SetVariable("f_v", 0.004);
  m.SetVariable("T_C", "12");
  m.SetVariable("f_v", "0.004");
  const std::vector<double> tuned = RecordedValues(system);
  ASSERT_FALSE(tuned.empty());
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
}

// A link's mass changes the robot model the controller computes with (ComputedTorque binds
// the arm's tree): the controller is bound again to the new robot, as a recompile binds it.
TEST(MechanismTuningTest, LinkMassRebindsTheRobotOfTheController) {
  Model m = LoadModel("models/robot6dof/twin.xml");
  m.simulation.Set("t_end", "0.05");
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  system.SetParameter("arm/link3/solid", "mass", 12.0);
  // The link is a define instance inside a define instance: expanded, its Solid is editable.
  m.ExpandDefine("arm");
  m.ExpandDefine("arm/link3");
  ASSERT_EQ(RecordedValues(Compile(m)), before);
  m.SetParam("arm/link3/solid", "mass", 12.0);
  const std::vector<double> tuned = RecordedValues(system);
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
}

// G2's contact stiffness (the gripper's 13 contacts, through the hand's parameter) retuned
// like a recompile, through the first contacts at 0.153 s.
TEST(MechanismTuningTest, PowerGraspContactStiffnessEqualsRecompile) {
  Model m = LoadModel("models/gripper4/g2_power.xml");
  m.simulation.Set("t_end", "0.17");
  m.SetVariable("k_contact", "1e6");
  m.SetParam("hand", "stiffness", std::string("k_contact"));
  System system = Compile(m);
  const std::vector<double> before = RecordedValues(system);
  EXPECT_EQ(system.SetVariable("k_contact", 2e6).size(), 13u);
  m.SetVariable("k_contact", "2e6");
  const std::vector<double> tuned = RecordedValues(system);
  EXPECT_NE(tuned, before);
  EXPECT_EQ(tuned, RecordedValues(Compile(m)));
}

}  // namespace
}  // namespace twinblocks::graph
