// SampleHits::kStepOver (docs/simulation.md, "Sample hits"): a variable-step solver passes the
// discrete sample hits that change nothing it reads, and lands where one does.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/runtime/compile_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using test_support::CompileXml;

using SampleHits = SimulationSettingsValues::SampleHits;

// A first-order lag x' = u - x fed by a 50-sample delay of a constant 1 (Ts = 0.01 s): u is 0
// until t = 0.5 s, then 1, so x = 0 before and 1 - exp(-(t - 0.5)) after. The delay's states
// shift at every hit while its output stays put, except at t = 0.5 s.
constexpr const char* kDelayedStep = R"xml(<model name="delayed_step">
  <simulation solver="ode45" t_end="1" rtol="1e-9" atol="1e-12" max_step="0.25"/>
  <block type="Constant" name="one" value="1"/>
  <block type="Delay" name="delayed" n="50" Ts="0.01"/>
  <block type="Sum" name="error" signs="+-"/>
  <block type="Integrator" name="x"/>
  <connect from="one.y" to="delayed.u"/>
  <connect from="delayed.y" to="error.u1"/>
  <connect from="x.y" to="error.u2"/>
  <connect from="error.y" to="x.u"/>
  <log signal="delayed.y" as="u"/>
  <log signal="x.y" as="x"/>
</model>)xml";

struct HitsRun {
  long steps = 0;
  std::vector<double> t, u, x;
};

HitsRun RunWith(const System& system, SampleHits hits, const std::string& solver,
                double t_end = 1.0) {
  SimulationSettingsValues settings = system.settings();
  settings.t_end = t_end;
  settings.sample_hits = hits;
  settings.solver = solver;
  Simulator sim(system, settings);
  EXPECT_TRUE(sim.Run().ok);
  HitsRun r;
  r.steps = sim.stats().solver.steps;
  const Recording& rec = sim.recording();
  for (int i = 0; i < rec.num_rows(); ++i) {
    r.t.push_back(rec.time(i));
    r.u.push_back(rec.value(i, rec.FindColumn("u")));
    r.x.push_back(rec.value(i, rec.FindColumn("x")));
  }
  return r;
}

double Lag(double t) { return t < 0.5 ? 0.0 : 1.0 - std::exp(-(t - 0.5)); }

TEST(SampleHits, StepOverPassesQuietHitsAndLandsOnTheOneThatChangesTheInput) {
  const System system = CompileXml(kDelayedStep);
  for (const char* solver : {"ode45", "ode23s", "cvode-bdf"}) {
    SCOPED_TRACE(solver);
    // Up to 0.49 s nothing the solver reads changes: landing, every one of the 49 hits ends a
    // step; stepping over, the solver takes steps of up to max_step.
    EXPECT_GE(RunWith(system, SampleHits::kLand, solver, 0.49).steps, 49);
    EXPECT_LE(RunWith(system, SampleHits::kStepOver, solver, 0.49).steps, 10);
    const HitsRun over = RunWith(system, SampleHits::kStepOver, solver);
    // Every hit is still a major step with its row, at its exact time, in order.
    int hits = 0;
    for (size_t i = 0; i < over.t.size(); ++i) {
      if (i > 0) {
        EXPECT_GT(over.t[i], over.t[i - 1]);
      }
      // A hit's row is at its exact time k Ts.
      if (over.t[i] == std::round(over.t[i] / 0.01) * 0.01) ++hits;
      // The lag matches its closed form at every row, the interpolated hits included; u is
      // the delay's output at the row's time: 1 from the hit at 0.5 s on.
      EXPECT_NEAR(over.x[i], Lag(over.t[i]), 2e-6) << "t = " << over.t[i];
      EXPECT_EQ(over.u[i], over.t[i] >= 0.5 - 1e-12 ? 1.0 : 0.0) << "t = " << over.t[i];
    }
    EXPECT_EQ(hits, 101);
    // The solver restarted exactly at 0.5 s: x is still 0 there.
    for (size_t i = 0; i < over.t.size(); ++i) {
      if (over.t[i] == 0.5) {
        EXPECT_LT(std::abs(over.x[i]), 1e-9);
      }
    }
  }
}

// A command that ramps at every sample changes the solver's input at every hit: stepping over
// then lands on each, exactly as landing does (the same steps, bitwise the same results).
TEST(SampleHits, StepOverLandsOnEveryHitOfAChangingCommand) {
  const System system = CompileXml(R"xml(<model name="ramped">
    <simulation solver="ode23s" t_end="0.3" rtol="1e-6" atol="1e-9"/>
    <block type="Constant" name="increment" value="0.01"/>
    <block type="Sum" name="command" signs="++"/>
    <block type="Delay" name="last" n="1" Ts="0.01"/>
    <block type="Sum" name="error" signs="+-"/>
    <block type="Integrator" name="x"/>
    <connect from="last.y" to="command.u1"/>
    <connect from="increment.y" to="command.u2"/>
    <connect from="command.y" to="last.u"/>
    <connect from="command.y" to="error.u1"/>
    <connect from="x.y" to="error.u2"/>
    <connect from="error.y" to="x.u"/>
    <log signal="command.y" as="u"/>
    <log signal="x.y" as="x"/>
  </model>)xml");
  const HitsRun land = RunWith(system, SampleHits::kLand, "ode23s", 0.3);
  const HitsRun over = RunWith(system, SampleHits::kStepOver, "ode23s", 0.3);
  EXPECT_EQ(over.steps, land.steps);
  EXPECT_EQ(over.t, land.t);
  EXPECT_EQ(over.u, land.u);
  EXPECT_EQ(over.x, land.x);
  EXPECT_NEAR(land.u.back(), 0.31, 1e-12);  // the test could fail: the command did ramp
}

TEST(SampleHits, StepOverNeedsAVariableStepOdeSolver) {
  const System system = CompileXml(kDelayedStep);
  for (const char* solver : {"ode4", "ros2", "ida"}) {
    SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    settings.sample_hits = SampleHits::kStepOver;
    try {
      Simulator sim(system, settings);
      ADD_FAILURE() << solver << " accepted step_over";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "sample_hits=\"step_over\" needs a variable-step ODE solver with dense output "
                "(ode23, ode45, ode23s, cvode-bdf, cvode-adams, arkode-erk, arkode-dirk); " +
                    std::string(solver) + " is not one");
    }
  }
}

}  // namespace
}  // namespace twinblocks::graph
