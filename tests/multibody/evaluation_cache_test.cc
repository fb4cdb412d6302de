// A mechanism keeps its kinematics and contacts between evaluations at the same q and v
// (Mechanism::EvaluateContacts). Whatever the order of evaluations, each must give what a
// fresh simulator gives at that state: a sphere pressed into a plane and sliding on it.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "graph/compile.h"
#include "graph/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

const char* kSlidingSphere = R"xml(<model name="sliding">
    <simulation solver="ros2" step="1e-4" t_end="0.01"/>
    <block type="World" name="world" gravity="[0, 0, -9.81]"/>
    <block type="Solid" name="ground" shape="plane"/>
    <block type="FreeJoint" name="free" position0="[0, 0, 0.0499]" v0="[0.02, 0, 0]"/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness="1e6" damping="1e3"
           transition_width="0" friction="smooth_stick_slip" mu_s="0.5"
           mu_d="0.3" v_crit="1e-3"/>
    <connect from="world.W" to="ground.R"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="ground.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
  </model>)xml";

// f(x) of a simulator that has evaluated nothing but its start.
Eigen::VectorXd FreshDerivatives(const graph::System& system, const Eigen::VectorXd& x) {
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  Eigen::VectorXd xdot(x.size());
  sim.EvaluateDerivatives(sim.time(), x, &xdot);
  return xdot;
}

TEST(EvaluationCacheTest, EvaluationsInAnyOrderMatchFreshOnes) {
  const graph::System system = graph::Compile(xml::ReadModelString(kSlidingSphere));
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

}  // namespace
}  // namespace twinblocks
