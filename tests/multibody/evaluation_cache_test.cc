// A mechanism keeps its kinematics and contacts between evaluations at the same q and v
// (Mechanism::EvaluateContacts). Whatever the order of evaluations, each must give what a
// fresh simulator gives at that state: a sphere pressed into a plane and sliding on it.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "graph/compile.h"
#include "graph/simulator.h"
#include "tests/multibody/pressed_sphere.h"
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

}  // namespace
}  // namespace twinblocks
