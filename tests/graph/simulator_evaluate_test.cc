// Simulator::EvaluateDerivatives: the solver's right-hand side, callable on its own.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <stdexcept>

#include "graph/compile.h"
#include "graph/simulator.h"
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

}  // namespace
}  // namespace twinblocks::graph
