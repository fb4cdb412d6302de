// How the simulator serves stiff diagrams: ode23s forms df/dt for a diagram driven through t
// (and not for one that is not), and ode45 says when its steps are bounded by stability.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;

// Prothero and Robinson's problem as a diagram, x' = lambda (x - cos t) - sin t with
// lambda = -1e4, from x(0) = 2: x = cos t + e^(lambda t). The sources are Sines, so f depends
// on t itself; without `sine_sources` they are Constants (then f does not).
std::string ProtheroRobinson(const std::string& solver, bool sine_sources = true) {
  const std::string cos_source = sine_sources ? R"(<block type="Sine" name="cos" phase="pi/2"/>)"
                                              : R"(<block type="Constant" name="cos" value="1"/>)";
  const std::string sin_source = sine_sources
                                     ? R"(<block type="Sine" name="minus_sin" amplitude="-1"/>)"
                                     : R"(<block type="Constant" name="minus_sin" value="0"/>)";
  return R"(<model name="prothero_robinson" format="1">
    <simulation solver=")" +
         solver + R"(" t_end="1" rtol="1e-6" atol="1e-9"/>)" + cos_source + sin_source + R"(
    <block type="Sum" name="error" signs="+-"/>
    <block type="Gain" name="lambda" k="-1e4"/>
    <block type="Sum" name="rate" signs="++"/>
    <block type="Integrator" name="x" x0="2"/>
    <connect from="x.y" to="error.u1"/>
    <connect from="cos.y" to="error.u2"/>
    <connect from="error.y" to="lambda.u"/>
    <connect from="lambda.y" to="rate.u1"/>
    <connect from="minus_sin.y" to="rate.u2"/>
    <connect from="rate.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)";
}

struct StiffRun {
  SimulationOutcome outcome;
  SimulationStats stats;
  double x_end = 0.0;
};

StiffRun RunModel(const std::string& xml) {
  const System system = Compile(xml::ReadModelString(xml));
  Simulator sim(system, system.settings());
  StiffRun r;
  r.outcome = sim.Run();
  r.stats = sim.stats();
  r.x_end = sim.recording().value(sim.recording().num_rows() - 1, 0);
  return r;
}

// With df/dt, as MATLAB's ode23s: about 800 steps to 1 s at rtol 1e-6, x(1) within 1e-6 of
// cos 1 (measured 4.3e-8). Without it (before the Sines said they read t) ode23s took 16589
// steps, the error estimate seeing the time dependence as error.
TEST(SimulatorStiffness, Ode23sFormsDfDtForADiagramDrivenThroughTime) {
  const StiffRun r = RunModel(ProtheroRobinson("ode23s"));
  ASSERT_TRUE(r.outcome.ok) << r.outcome.error;
  EXPECT_NEAR(r.x_end, std::cos(1.0) + std::exp(-1e4), 1e-6);
  EXPECT_LT(r.stats.solver.steps, 1500);
}

// A diagram that does not read t (Constant sources) costs ode23s no difference in t: each
// Jacobian (formed by differences over the one state) takes one evaluation, not two.
TEST(SimulatorStiffness, Ode23sFormsNoDfDtForADiagramThatDoesNotReadTime) {
  const StiffRun driven = RunModel(ProtheroRobinson("ode23s"));
  const StiffRun autonomous = RunModel(ProtheroRobinson("ode23s", /*sine_sources=*/false));
  ASSERT_TRUE(driven.outcome.ok && autonomous.outcome.ok);
  const auto extra = [](const StiffRun& r) {
    // f at the start, then two per attempted step; the rest is what each Jacobian took.
    return static_cast<double>(r.stats.solver.rhs_evals - 1 -
                               2 * (r.stats.solver.steps + r.stats.solver.rejected_steps)) /
           static_cast<double>(r.stats.solver.jacobian_evals);
  };
  EXPECT_DOUBLE_EQ(extra(driven), 2.0);
  EXPECT_DOUBLE_EQ(extra(autonomous), 1.0);
}

// ode45 on the same diagram is held by stability to h |lambda| < 3.3 (about 3000 steps for
// what ode23s does in 800): Hairer's test finds it within the first 0.01 s and the stats line
// says so, naming the solvers to try. ode23s, whose steps are not so bounded, never says it.
TEST(SimulatorStiffness, Ode45SaysWhenItsStepsAreBoundedByStability) {
  const StiffRun explicit_run = RunModel(ProtheroRobinson("ode45"));
  ASSERT_TRUE(explicit_run.outcome.ok);
  const double since = explicit_run.stats.solver.stiff_since;
  EXPECT_GT(since, 0.0);
  EXPECT_LT(since, 0.01);
  EXPECT_GT(explicit_run.stats.solver.steps, 2500);
  const std::string line = explicit_run.stats.Summary(1.0);
  EXPECT_THAT(line, HasSubstr("stiff from t = "));
  EXPECT_THAT(line, HasSubstr("try ode23s or cvode-bdf"));

  const StiffRun implicit_run = RunModel(ProtheroRobinson("ode23s"));
  EXPECT_TRUE(std::isnan(implicit_run.stats.solver.stiff_since));
  EXPECT_THAT(implicit_run.stats.Summary(1.0), ::testing::Not(HasSubstr("stiff")));
}

// The stats line counts the Jacobians of the solvers that form them, and says nothing of them
// for the ones that do not.
TEST(SimulatorStiffness, StatsLineCountsJacobiansWhereTheSolverFormsThem) {
  const StiffRun implicit_run = RunModel(ProtheroRobinson("ode23s"));
  ASSERT_TRUE(implicit_run.outcome.ok);
  const long jacobians = implicit_run.stats.solver.jacobian_evals;
  EXPECT_EQ(jacobians, implicit_run.stats.solver.steps + implicit_run.stats.solver.rejected_steps);
  EXPECT_THAT(implicit_run.stats.Summary(1.0),
              HasSubstr("), f-evals " + std::to_string(implicit_run.stats.solver.rhs_evals) +
                        ", Jacobians " + std::to_string(jacobians) + ", zero crossings"));
  const StiffRun explicit_run = RunModel(ProtheroRobinson("ode45"));
  EXPECT_THAT(explicit_run.stats.Summary(1.0), ::testing::Not(HasSubstr("Jacobians")));
}

// A model that is not stiff (a lightly damped oscillator, accuracy bounding every step) gets
// no such line from ode45, nor from its stiffness test after the transient.
TEST(SimulatorStiffness, Ode45SaysNothingOfANonStiffModel) {
  const StiffRun r = RunModel(R"(<model name="oscillator" format="1">
    <simulation solver="ode45" t_end="50" rtol="1e-6" atol="1e-9"/>
    <block type="Integrator" name="v" x0="1"/>
    <block type="Integrator" name="x"/>
    <block type="Gain" name="spring" k="-4"/>
    <block type="Gain" name="damper" k="-0.1"/>
    <block type="Sum" name="force" signs="++"/>
    <connect from="v.y" to="x.u"/>
    <connect from="x.y" to="spring.u"/>
    <connect from="v.y" to="damper.u"/>
    <connect from="spring.y" to="force.u1"/>
    <connect from="damper.y" to="force.u2"/>
    <connect from="force.y" to="v.u"/>
    <log signal="x.y" as="x"/>
  </model>)");
  ASSERT_TRUE(r.outcome.ok);
  EXPECT_TRUE(std::isnan(r.stats.solver.stiff_since));
}

}  // namespace
}  // namespace twinblocks::graph
