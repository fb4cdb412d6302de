// SimulationStats::resets and projections: why the simulator restarted the solver, one cause
// per restart (Simulink's Solver Profiler "solver resets"), and the stats line that says so.
#include <gtest/gtest.h>

#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

SimulationStats RunText(const std::string& xml) {
  const System system = Compile(xml::ReadModelString(xml, "resets.xml"));
  Simulator sim(system, system.settings());
  const SimulationOutcome outcome = sim.Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  return sim.stats();
}

// An integrator fed by a unit delay sampled every 0.1 s, and a Step at 0.55 s: every hit lands
// a step and restarts the solver (Simulink's "discrete signal" resets), the step once.
TEST(SolverResets, SampleHitsAndBreakpointsEachCountOnce) {
  const SimulationStats stats = RunText(R"(<model name="m">
    <simulation solver="ode45" t_end="1" rtol="1e-6"/>
    <block type="Sine" name="drive"/>
    <block type="UnitDelay" name="held" Ts="0.1"/>
    <block type="Step" name="kick" time="0.55"/>
    <block type="Sum" name="total" signs="++"/>
    <block type="Integrator" name="x"/>
    <connect from="drive.y" to="held.u"/>
    <connect from="held.y" to="total.u1"/>
    <connect from="kick.y" to="total.u2"/>
    <connect from="total.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)");
  EXPECT_EQ(stats.resets.sample_hits, 10);  // 0.1 ... 1.0
  EXPECT_EQ(stats.resets.breakpoints, 1);
  EXPECT_EQ(stats.resets.zero_crossings, 0);
  EXPECT_EQ(stats.resets.state_resets, 0);
  EXPECT_EQ(stats.resets.total(), 11);
  EXPECT_NE(stats.Summary(1.0).find(", solver resets 11 (sample hits 10, breakpoints 1), wall"),
            std::string::npos)
      << stats.Summary(1.0);
}

// A bouncing ball: each impact is a located crossing whose major step resets the velocity;
// the reset names the cause (the crossing is counted by the solver's own statistics).
TEST(SolverResets, ABounceIsAStateReset) {
  const System system =
      Compile(xml::ReadModelFile(testing::SourcePath("examples/bouncing_ball_second_order.xml")));
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  const SimulationStats& stats = sim.stats();
  EXPECT_GT(stats.resets.state_resets, 0);
  EXPECT_EQ(stats.resets.state_resets, stats.solver.zero_crossings);
  EXPECT_EQ(stats.resets.total(), stats.resets.state_resets);
  EXPECT_EQ(stats.projections, 0);
}

// A mechanism's projections onto its loops are no resets: ode23s goes on with its step size.
TEST(SolverResets, ProjectionsAreCountedApart) {
  const System system =
      Compile(xml::ReadModelFile(testing::SourcePath("models/mechanisms/four_bar.xml")));
  SimulationSettingsValues settings = system.settings();
  settings.solver = "ode23s";
  settings.rtol = 1e-3;
  settings.t_end = 2.0;
  Simulator sim(system, settings);
  ASSERT_TRUE(sim.Run().ok);
  EXPECT_GT(sim.stats().projections, sim.stats().solver.steps / 2);
  EXPECT_EQ(sim.stats().resets.total(), 0);
  EXPECT_NE(sim.stats().Summary(2.0).find(", projections "), std::string::npos);
  EXPECT_EQ(sim.stats().Summary(2.0).find("solver resets"), std::string::npos);
}

// The step API: a changed input restarts the solver once, where the change takes effect.
TEST(SolverResets, AChangedInputCountsAsAnInput) {
  const System system = Compile(xml::ReadModelString(R"(<model name="m">
    <simulation solver="ode45" t_end="2"/>
    <inport name="u"/>
    <block type="Integrator" name="x"/>
    <connect from=".u" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)",
                                                     "m.xml"));
  Simulator sim(system, system.settings());
  sim.Initialize();
  const InputHandle u = sim.FindInput("u");
  ASSERT_TRUE(sim.AdvanceTo(1.0).ok);
  const double value[] = {3.0};
  sim.SetInput(u, value);
  ASSERT_TRUE(sim.Run().ok);
  EXPECT_EQ(sim.stats().resets.inputs, 1);
  EXPECT_EQ(sim.stats().resets.total(), 1);
}

}  // namespace
}  // namespace twinblocks::graph
