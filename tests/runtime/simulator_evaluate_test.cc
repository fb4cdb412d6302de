// Simulator::EvaluateDerivatives: the solver's right-hand side, callable on its own.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <stdexcept>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

// x1' = x2, x2' = -4 x1 - 0.5 x2 + 3: a damped oscillator under a constant force, as two
// integrators in a loop.
constexpr const char* kOscillator = R"xml(<model name="oscillator">
  <simulation solver="ode45" t_end="1"/>
  <block type="Integrator" name="position" x0="1"/>
  <block type="Integrator" name="velocity" x0="0"/>
  <block type="Gain" name="spring" k="-4"/>
  <block type="Gain" name="damper" k="-0.5"/>
  <block type="Constant" name="force" value="3"/>
  <block type="Sum" name="total" signs="+++"/>
  <connect from="velocity.y" to="position.u"/>
  <connect from="position.y" to="spring.u"/>
  <connect from="velocity.y" to="damper.u"/>
  <connect from="spring.y" to="total.u1"/>
  <connect from="damper.y" to="total.u2"/>
  <connect from="force.y" to="total.u3"/>
  <connect from="total.y" to="velocity.u"/>
</model>)xml";

TEST(SimulatorEvaluate, GivesTheRightHandSideAtAnyState) {
  const System system = Compile(xml::ReadModelString(kOscillator));
  Simulator sim(system, system.settings());
  sim.Initialize();
  ASSERT_EQ(system.num_continuous_states(), 2);
  // Which state is which follows the blocks' order in the compiled system: find out from
  // the initial state, x = [1, 0] in some order.
  const Eigen::VectorXd x0 = sim.state().x;
  const int p = x0[0] == 1.0 ? 0 : 1, v = 1 - p;
  Eigen::VectorXd x(2), xdot(2);
  x[p] = 0.25;
  x[v] = -2.0;
  sim.EvaluateDerivatives(0.3, x, &xdot);
  EXPECT_EQ(xdot[p], -2.0);
  EXPECT_EQ(xdot[v], -4.0 * 0.25 - 0.5 * -2.0 + 3.0);
  // The run is not disturbed: it starts from its own initial state.
  EXPECT_TRUE(sim.Run().ok);
}

TEST(SimulatorEvaluate, RefusesBeforeInitialize) {
  const System system = Compile(xml::ReadModelString(kOscillator));
  Simulator sim(system, system.settings());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(2), xdot(2);
  EXPECT_THROW(sim.EvaluateDerivatives(0.0, x, &xdot), std::logic_error);
}

// The first evaluation at a major step's time and state takes that major step's outputs
// (Simulink's order) instead of computing them again: both must give the same derivatives,
// bitwise, after major steps with and without discrete updates (a detector sampled every
// 1e-4 s, closure controllers, contacts). The second call at the same point recomputes.
TEST(SimulatorEvaluate, MajorStepOutputsGiveTheDerivativesAComputationWould) {
  const System system = Compile(
      xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml"));
  SimulationSettingsValues settings = system.settings();
  settings.solver = "ode3";
  settings.step = 5e-5;
  Simulator sim(system, settings);
  sim.Initialize();
  const int nx = system.num_continuous_states();
  Eigen::VectorXd reused(nx), computed(nx);
  // 0.07 s: the fingertips push the sphere; a step of 5e-5 s puts every other major step on a
  // sample hit.
  for (const double t : {0.07, 0.07005, 0.0701, 0.1, 0.10005}) {
    sim.AdvanceTo(t);
    const Eigen::VectorXd x = sim.state().x;
    sim.EvaluateDerivatives(sim.time(), x, &reused);
    sim.EvaluateDerivatives(sim.time(), x, &computed);
    for (int i = 0; i < nx; ++i) {
      ASSERT_EQ(reused[i], computed[i]) << system.DescribeState(i) << " at t = " << t;
    }
  }
  EXPECT_GT(std::abs(reused.maxCoeff()), 0.0);
}

}  // namespace
}  // namespace twinblocks::graph
