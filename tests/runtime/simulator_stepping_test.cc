// Simulator's step-by-step API (docs/stepping.md): AdvanceTo, external inputs from top-level
// <inport>s, reading signals and states by handle, saving and restoring a run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "tests/runtime/compile_helpers.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using test_support::CompileXml;

using ::testing::HasSubstr;

// x' = u with u an external input of width 2: x is the integral of what the test sets.
constexpr const char* kIntegratedInput = R"xml(<model name="integrated_input">
  <simulation solver="ode45" t_end="2" rtol="1e-10" atol="1e-12"/>
  <inport name="u" width="2"/>
  <block type="Integrator" name="x"/>
  <block type="Gain" name="twice" k="2"/>
  <connect from=".u" to="x.u"/>
  <connect from=".u" to="twice.u"/>
  <log signal="x.y" as="x"/>
</model>)xml";

std::string SteppingCompileError(const std::string& xml) {
  try {
    CompileXml(xml);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

template <class F>
std::string ExceptionOf(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::vector<double> ToVector(std::span<const double> s) { return {s.begin(), s.end()}; }

TEST(SimulatorStepping, HeldInputIsIntegratedPieceByPiece) {
  const System system = CompileXml(kIntegratedInput);
  ASSERT_EQ(system.external_inputs().size(), 1u);
  Simulator sim(system, system.settings());
  sim.Initialize();
  const InputHandle u = sim.FindInput("u");
  EXPECT_EQ(u.width, 2);
  const SignalHandle x = sim.FindSignal("x.y");
  const SignalHandle twice = sim.FindSignal("twice.y");
  const SignalHandle u_signal = sim.FindSignal(".u");
  EXPECT_EQ(ToVector(sim.Read(x)), (std::vector<double>{0.0, 0.0}));

  const double first[] = {1.0, 2.0};
  sim.SetInput(u, first);
  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  EXPECT_EQ(sim.time(), 0.5);
  EXPECT_EQ(ToVector(sim.Read(u_signal)), (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(ToVector(sim.Read(twice)), (std::vector<double>{2.0, 4.0}));
  const double second[] = {3.0, -1.0};
  sim.SetInput(u, second);
  ASSERT_TRUE(sim.AdvanceTo(1.0).ok);
  EXPECT_EQ(sim.time(), 1.0);
  EXPECT_NEAR(sim.Read(x)[0], 0.5 * 1.0 + 0.5 * 3.0, 1e-12);
  EXPECT_NEAR(sim.Read(x)[1], 0.5 * 2.0 - 0.5 * 1.0, 1e-12);
  // The states by block, the same numbers.
  const StatesHandle xs = sim.FindContinuousStates("x");
  EXPECT_EQ(xs.size, 2);
  EXPECT_EQ(ToVector(sim.ReadContinuousStates(xs)), ToVector(sim.Read(x)));
  // AdvanceTo the current time does nothing.
  ASSERT_TRUE(sim.AdvanceTo(1.0).ok);
  EXPECT_EQ(sim.time(), 1.0);
  // Run finishes the horizon with the input still held.
  ASSERT_TRUE(sim.Run().ok);
  EXPECT_NEAR(sim.Read(x)[0], 2.0 + 3.0, 1e-11);
}

TEST(SimulatorStepping, InputNeverSetHoldsZero) {
  const System system = CompileXml(kIntegratedInput);
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  EXPECT_EQ(ToVector(sim.Read(sim.FindSignal("x.y"))), (std::vector<double>{0.0, 0.0}));
}

TEST(SimulatorStepping, CommandLineRunsAModelWithInputsAtZero) {
  const testing::RunOutput out = testing::RunModelText(kIntegratedInput);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  for (double v : testing::Column(out.recording, "x[0]")) EXPECT_EQ(v, 0.0);
}

TEST(SimulatorStepping, AnUnchangedInputDoesNotRestartTheSolver) {
  const System system = CompileXml(kIntegratedInput);
  Simulator sim(system, system.settings());
  sim.Initialize();
  const InputHandle u = sim.FindInput("u");
  const double value[] = {1.0, 1.0};
  sim.SetInput(u, value);
  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  const long resets = sim.stats().solver.resets;
  sim.SetInput(u, value);
  ASSERT_TRUE(sim.AdvanceTo(1.0).ok);
  EXPECT_EQ(sim.stats().solver.resets, resets);
  const double other[] = {1.0, 2.0};
  sim.SetInput(u, other);
  ASSERT_TRUE(sim.AdvanceTo(1.5).ok);
  EXPECT_EQ(sim.stats().solver.resets, resets + 1);
}

// Stepping a fixed-step solver in 1 ms pieces lands on its own grid: the same steps as Run.
TEST(SimulatorStepping, SteppingMatchesRunBitwiseForAFixedStepSolver) {
  const System system =
      Compile(xml::ReadModelFile(testing::SourcePath("models/robot6dof/cosim_closed_loop.xml")));
  SimulationSettingsValues settings = system.settings();
  settings.t_end = 0.05;
  Simulator whole(system, settings);
  ASSERT_TRUE(whole.Run().ok);
  Simulator stepped(system, settings);
  stepped.Initialize();
  for (int k = 1; k <= 50; ++k) ASSERT_TRUE(stepped.AdvanceTo(k * 1e-3).ok);
  EXPECT_EQ(stepped.time(), whole.time());
  for (int i = 0; i < system.num_continuous_states(); ++i) {
    EXPECT_EQ(stepped.state().x[i], whole.state().x[i]) << system.DescribeState(i);
  }
}

TEST(SimulatorStepping, NumericalFailureIsReportedAndKeptUntilRestore) {
  // x' = 1 / (0.5 - t): x goes to infinity at t = 0.5.
  const System system = CompileXml(R"xml(<model name="blowup">
    <simulation solver="ode45" t_end="1"/>
    <block type="Clock" name="clock"/>
    <block type="Expression" name="rate" expr="1 / (0.5 - u)"/>
    <block type="Integrator" name="x"/>
    <connect from="clock.t" to="rate.u1"/>
    <connect from="rate.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)xml");
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.AdvanceTo(0.25).ok);
  const SimulationSnapshot before = sim.SaveState();
  const int rows = sim.recording().num_rows();
  const SimulationOutcome failed = sim.AdvanceTo(1.0);
  EXPECT_FALSE(failed.ok);
  EXPECT_THAT(failed.error, HasSubstr("simulation failed at t = "));
  EXPECT_LT(failed.t, 0.5);
  EXPECT_GT(sim.recording().num_rows(), rows);  // the rows up to the failure are kept
  // Later calls report the same failure instead of stepping on.
  const SimulationOutcome again = sim.AdvanceTo(1.0);
  EXPECT_FALSE(again.ok);
  EXPECT_EQ(again.error, failed.error);
  // A restore clears it.
  sim.RestoreState(before);
  EXPECT_EQ(sim.time(), 0.25);
  EXPECT_EQ(sim.recording().num_rows(), rows);
  EXPECT_TRUE(sim.AdvanceTo(0.4).ok);
}

TEST(SimulatorStepping, StepsThatNoLongerAdvanceTimeFailTheRunInsteadOfCrawling) {
  // x' = -1e300 (x - sin t): ode45 stays stable only with steps of about 3e-300 s, accepted
  // one after another, each far below the run's time resolution (16 eps 1 s = 3.6e-15 s):
  // without the guard, hours for a microsecond.
  const System system = CompileXml(R"xml(<model name="stiff">
    <simulation solver="ode45" t_end="1"/>
    <block type="Integrator" name="x" x0="0.5"/>
    <block type="Expression" name="rate" expr="-1e300 * (u - sin(t))"/>
    <connect from="x.y" to="rate.u1"/>
    <connect from="rate.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)xml");
  Simulator sim(system, system.settings());
  const SimulationOutcome outcome = sim.Run();
  ASSERT_FALSE(outcome.ok);
  EXPECT_LT(outcome.t, 1e-9);
  EXPECT_THAT(outcome.error, HasSubstr("simulation failed at t = "));
  EXPECT_THAT(outcome.error, HasSubstr("time no longer advances: the last 10000 steps were each "
                                       "shorter than 3.55e-15 s"));
  EXPECT_THAT(outcome.error, HasSubstr("try ode23s or cvode-bdf"));
  EXPECT_EQ(sim.stats().solver.steps, 10000);
  EXPECT_GT(sim.recording().num_rows(), 1);  // what it did is kept
}

// x' = -sign(x) from x = 1: at t = 1 the switch reverses the input it switches on. The
// SUNDIALS solvers locate a crossing, step a few ulps past it, and locate the next one, each
// step just long enough to pass the crawl guard: without the consecutive-crossings guard,
// 24 million crossings in a minute at t = 1.
constexpr const char* kChatteringSign = R"xml(<model name="chatter">
    <simulation solver="cvode-bdf" t_end="3"/>
    <block type="Integrator" name="x" x0="1"/>
    <block type="Sign" name="s"/>
    <block type="Gain" name="k" k="-1"/>
    <connect from="x.y" to="s.u"/>
    <connect from="s.y" to="k.u"/>
    <connect from="k.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)xml";

TEST(SimulatorStepping, ConsecutiveZeroCrossingsFailTheRunAtTheSwitch) {
  const System system = CompileXml(kChatteringSign);
  EXPECT_EQ(system.settings().max_consecutive_zc, 1000);
  EXPECT_DOUBLE_EQ(system.settings().zc_time_tolerance,
                   10 * 128 * std::numeric_limits<double>::epsilon());
  for (const char* solver : {"cvode-bdf", "cvode-adams", "arkode-erk", "arkode-dirk", "ida"}) {
    SCOPED_TRACE(solver);
    SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    Simulator sim(system, settings);
    const SimulationOutcome outcome = sim.Run();
    ASSERT_FALSE(outcome.ok);
    // When: at the switching time, to within the crossings' window.
    EXPECT_NEAR(outcome.t, 1.0, 1e-9);
    // Where, and what to do.
    EXPECT_THAT(outcome.error, HasSubstr("1000 zero crossings in a row at block 's' (Sign), "
                                         "each within 2.84e-13 s of the one before"));
    EXPECT_THAT(outcome.error, HasSubstr("max_consecutive_zc (1000)"));
    EXPECT_EQ(sim.stats().solver.zero_crossings, 1000);
    // What it did is kept: x falls at unit rate to 0.
    const Recording& rec = sim.recording();
    ASSERT_GT(rec.num_rows(), 1000);
    EXPECT_NEAR(rec.value(rec.num_rows() - 1, 0), 0.0, 1e-9);
  }
}

TEST(SimulatorStepping, ConsecutiveZeroCrossingsLimitAndWindowAreSettings) {
  const System system = CompileXml(kChatteringSign);
  SimulationSettingsValues settings = system.settings();
  settings.max_consecutive_zc = 50;
  Simulator fewer(system, settings);
  const SimulationOutcome outcome = fewer.Run();
  ASSERT_FALSE(outcome.ok);
  EXPECT_THAT(outcome.error, HasSubstr("50 zero crossings in a row at block 's' (Sign)"));
  EXPECT_EQ(fewer.stats().solver.zero_crossings, 50);
  // A window of 0 counts no two crossings as consecutive: even a limit of 2 never fires,
  // and the run chatters on (bounded here by a target a few picoseconds past the switch).
  settings.max_consecutive_zc = 2;
  settings.zc_time_tolerance = 0.0;
  Simulator unguarded(system, settings);
  const SimulationOutcome at = unguarded.AdvanceTo(1.0 + 2e-12);
  EXPECT_TRUE(at.ok) << at.error;
  EXPECT_GT(unguarded.stats().solver.zero_crossings, 50);
  // Out of range: refused by the simulator, before anything runs.
  settings.zc_time_tolerance = -1.0;
  EXPECT_THROW(Simulator(system, settings), std::invalid_argument);
  settings.zc_time_tolerance = 1e-12;
  settings.max_consecutive_zc = 0;
  EXPECT_THROW(Simulator(system, settings), std::invalid_argument);
}

// Results that could not be held are refused before the run, not found by the kernel's
// out-of-memory kill hours in.
TEST(SimulatorStepping, ResultsThatCannotBeHeldAreRefusedBeforeTheRun) {
  const System system = CompileXml(kIntegratedInput);
  SimulationSettingsValues settings = system.settings();
  settings.output_interval = 1e-12;  // 2e12 rows of time and x (width 2) over [0, 2] s
  try {
    Simulator sim(system, settings);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("output_interval = 1e-12 s over [0, 2] s gives 2e+12 rows of "
                                    "results (4.8e+04 GB), more than a run can record"));
  }
  settings.output_interval.reset();
  settings.solver = "ode3";
  settings.step = 1e-11;
  try {
    Simulator sim(system, settings);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("step = 1e-11 s over [0, 2] s gives 2e+11 rows"));
    EXPECT_THAT(e.what(), HasSubstr("give a longer step, or an output_interval"));
  }
  // Variable steps cannot be counted ahead: only the settings that fix the rows are refused.
  settings.solver = "ode45";
  EXPECT_NO_THROW(Simulator(system, settings));
  // A discrete rate's every hit is a row.
  const System sampled = CompileXml(R"xml(<model name="sampled">
    <simulation solver="ode45" t_end="2"/>
    <block type="Constant" name="c" value="1"/>
    <block type="UnitDelay" name="d" Ts="1e-10"/>
    <connect from="c.y" to="d.u"/>
    <log signal="d.y" as="d"/>
  </model>)xml");
  try {
    Simulator sim(sampled, sampled.settings());
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("the fastest sample time (block 'd') = 1e-10 s over [0, 2] s "
                                    "gives 2e+10 rows"));
    EXPECT_THAT(e.what(), HasSubstr("give an output_interval, or a longer sample time"));
  }
  SimulationSettingsValues thinned = sampled.settings();
  thinned.output_interval = 0.01;
  EXPECT_NO_THROW(Simulator(sampled, thinned));
}

TEST(SimulatorStepping, MisuseThrowsWithTheReason) {
  const System system = CompileXml(kIntegratedInput);
  Simulator sim(system, system.settings());
  const double two[] = {1.0, 2.0};
  const InputHandle u = sim.FindInput("u");
  EXPECT_THAT(ExceptionOf([&] { sim.SetInput(u, two); }), HasSubstr("SetInput before Initialize"));
  EXPECT_THAT(ExceptionOf([&] { sim.Read(sim.FindSignal("x.y")); }),
              HasSubstr("before Initialize"));
  EXPECT_THAT(ExceptionOf([&] { sim.SaveState(); }), HasSubstr("SaveState before Initialize"));
  sim.Initialize();

  EXPECT_THAT(ExceptionOf([&] { sim.FindInput("force"); }),
              HasSubstr("no external input 'force'; the model's top-level <inport>s: u"));
  EXPECT_THAT(ExceptionOf([&] { sim.FindSignal("x.yy"); }),
              HasSubstr("no signal 'x.yy'; did you mean 'x.y'? (write path.port of a block "
                        "output; `twinblocks check` lists"));
  EXPECT_THAT(ExceptionOf([&] { sim.FindContinuousStates("twice"); }),
              HasSubstr("block 'twice' (Gain) has no continuous states"));
  EXPECT_THAT(ExceptionOf([&] { sim.FindContinuousStates("spring"); }),
              HasSubstr("no block 'spring'; blocks with continuous states: x"));

  const double three[] = {1.0, 2.0, 3.0};
  EXPECT_THAT(ExceptionOf([&] { sim.SetInput(u, three); }),
              HasSubstr("input 'u' has width 2, got 3 values"));
  const double nan[] = {1.0, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_THAT(ExceptionOf([&] { sim.SetInput(u, nan); }),
              HasSubstr("input 'u'[1] is nan, expected a finite number"));
  InputHandle forged = u;
  forged.index = 3;
  EXPECT_THAT(ExceptionOf([&] { sim.SetInput(forged, two); }),
              HasSubstr("not an external input of this system"));
  SignalHandle outside{1000, 2};
  EXPECT_THROW(sim.Read(outside), std::logic_error);

  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  EXPECT_THAT(ExceptionOf([&] { sim.AdvanceTo(0.25); }),
              HasSubstr("AdvanceTo(0.25): the time must be in [0.5, 2]"));
  EXPECT_THAT(ExceptionOf([&] { sim.AdvanceTo(3.0); }), HasSubstr("the time must be in"));
  EXPECT_THROW(sim.AdvanceTo(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);

  EXPECT_THAT(ExceptionOf([&] { sim.RestoreState(SimulationSnapshot()); }),
              HasSubstr("the snapshot is empty"));
  const System other = CompileXml(kIntegratedInput);
  Simulator other_sim(other, other.settings());
  other_sim.Initialize();
  EXPECT_THAT(ExceptionOf([&] { sim.RestoreState(other_sim.SaveState()); }),
              HasSubstr("taken of another System"));
  // A snapshot of another solver does not fit this one's memory.
  SimulationSettingsValues fixed = system.settings();
  fixed.solver = "ode4";
  Simulator fixed_sim(system, fixed);
  fixed_sim.Initialize();
  EXPECT_THAT(ExceptionOf([&] { sim.RestoreState(fixed_sim.SaveState()); }),
              HasSubstr("saved by another solver?"));
}

TEST(SimulatorStepping, TopLevelInportErrorsNameTheLine) {
  auto model = [](const std::string& body) {
    return "<model name=\"m\">\n" + body + "\n<block type=\"Gain\" name=\"g\"/>\n</model>";
  };
  EXPECT_THAT(SteppingCompileError(model("<inport name=\"u\" width=\"0\"/>")),
              HasSubstr("<string>:2: <inport> 'u': width must be a whole number >= 1, got 0"));
  EXPECT_THAT(SteppingCompileError(model("<inport name=\"u\" width=\"2.5\"/>")),
              HasSubstr("width must be a whole number >= 1, got 2.5"));
  EXPECT_THAT(SteppingCompileError(model("<inport name=\"u\" width=\"n\"/>")),
              HasSubstr("<string>:2: <inport> 'u': width: "));
  EXPECT_THAT(SteppingCompileError(model("<inport name=\"u\" width=\"[1, 2]\"/>")),
              HasSubstr("expected a scalar"));
  EXPECT_THAT(SteppingCompileError(model("<inport name=\"g\"/><connect from=\".g\" to=\"g.u\"/>")),
              HasSubstr("<inport> 'g' has the name of the block at line 3"));
  EXPECT_THAT(
      SteppingCompileError(model("<inport name=\"speed\"/><connect from=\".sped\" to=\"g.u\"/>")),
      HasSubstr("no <inport> 'sped' at the top level; did you mean 'speed'?; the model's "
                "inports: speed"));
  EXPECT_THAT(SteppingCompileError(model("<connect from=\".v\" to=\"g.u\"/>")),
              HasSubstr("the model's inports: none"));
  // Width from a variable; an inport feeding nothing is allowed (it is set and ignored).
  EXPECT_EQ(SteppingCompileError("<model name=\"m\"><var name=\"n\" value=\"3\"/>"
                                 "<inport name=\"u\" width=\"n\"/></model>"),
            "");
  const System system = CompileXml(
      "<model name=\"m\"><var name=\"n\" value=\"3\"/><inport name=\"u\" width=\"n\"/>"
      "<block type=\"Gain\" name=\"g\"/><connect from=\".u\" to=\"g.u\"/></model>");
  EXPECT_EQ(system.external_inputs().at(0).width, 3);
  EXPECT_EQ(system.FindSignal("g.y")->width, 3);
}

// ---- Save and restore ----

/// Everything a continuation produces, to compare two of them bitwise.
struct Continuation {
  Eigen::VectorXd x;
  std::vector<double> xd, signals, dwork;
  std::vector<double> rows;  ///< time and values of the rows recorded after the save
  int num_rows = 0;
};

Continuation Capture(const Simulator& sim, int from_row) {
  Continuation c;
  c.x = sim.state().x;
  c.xd = sim.state().xd;
  c.signals = sim.state().signals;
  c.dwork = sim.state().dwork;
  const Recording& rec = sim.recording();
  c.num_rows = rec.num_rows();
  for (int r = from_row; r < rec.num_rows(); ++r) {
    c.rows.push_back(rec.time(r));
    for (int col = 0; col < rec.num_columns(); ++col) c.rows.push_back(rec.value(r, col));
  }
  return c;
}

void ExpectBitwiseEqual(const Continuation& a, const Continuation& b) {
  ASSERT_EQ(a.x.size(), b.x.size());
  for (Eigen::Index i = 0; i < a.x.size(); ++i) EXPECT_EQ(a.x[i], b.x[i]) << "x[" << i << "]";
  EXPECT_EQ(a.xd, b.xd);
  EXPECT_EQ(a.signals, b.signals);
  EXPECT_EQ(a.dwork, b.dwork);
  EXPECT_EQ(a.num_rows, b.num_rows);
  EXPECT_EQ(a.rows, b.rows);
}

/// Runs to t1, saves, runs to t2, restores, runs to t2 again (in this simulator and in a fresh
/// one of the same System): the continuations must agree bitwise.
void ExpectRestoreRepeatsTheRun(const System& system, const SimulationSettingsValues& settings,
                                double t1, double t2) {
  Simulator sim(system, settings);
  sim.Initialize();
  ASSERT_TRUE(sim.AdvanceTo(t1).ok);
  const SimulationSnapshot snapshot = sim.SaveState();
  EXPECT_EQ(snapshot.time(), t1);
  const int rows = sim.recording().num_rows();
  EXPECT_EQ(snapshot.num_recorded_rows(), rows);
  ASSERT_TRUE(sim.AdvanceTo(t2).ok);
  const Continuation first = Capture(sim, rows);
  ASSERT_GT(first.num_rows, rows);
  // The continuation is not the saved state: the test could fail.
  ASSERT_NE(first.x, snapshot.continuous_states());

  sim.RestoreState(snapshot);
  EXPECT_EQ(sim.time(), t1);
  EXPECT_EQ(sim.recording().num_rows(), rows);
  ASSERT_TRUE(sim.AdvanceTo(t2).ok);
  ExpectBitwiseEqual(Capture(sim, rows), first);

  // Another simulator of the same System takes the snapshot too (its recording starts empty).
  Simulator other(system, settings);
  other.RestoreState(snapshot);
  ASSERT_TRUE(other.AdvanceTo(t2).ok);
  Continuation second = Capture(other, 0);
  Continuation expected = first;
  expected.rows.clear();
  expected.num_rows = 0;
  second.rows.clear();
  second.num_rows = 0;
  ExpectBitwiseEqual(second, expected);
}

TEST(SimulatorSnapshot, FixedStepSolverRepeatsBitwise) {
  const System system = CompileXml(R"xml(<model name="oscillator">
    <simulation solver="ode4" step="1e-3" t_end="1"/>
    <block type="Integrator" name="position" x0="1"/>
    <block type="Integrator" name="velocity" x0="0"/>
    <block type="Gain" name="spring" k="-4"/>
    <block type="Expression" name="drag" expr="-0.5 * u * abs(u) + sin(3 * t)"/>
    <block type="Sum" name="total" signs="++"/>
    <connect from="velocity.y" to="position.u"/>
    <connect from="position.y" to="spring.u"/>
    <connect from="velocity.y" to="drag.u1"/>
    <connect from="spring.y" to="total.u1"/>
    <connect from="drag.y" to="total.u2"/>
    <connect from="total.y" to="velocity.u"/>
    <log signal="position.y" as="x"/>
    <log signal="drag.y" as="drag"/>
  </model>)xml");
  ExpectRestoreRepeatsTheRun(system, system.settings(), 0.3, 0.7);
}

// Fixed steps with zero crossings located inside them (Saturation modes): the functions' last
// values are part of the saved memory, for ode4 and for ros2.
TEST(SimulatorSnapshot, FixedStepSolverWithCrossingsRepeatsBitwise) {
  const System system = CompileXml(R"xml(<model name="limited">
    <simulation solver="ode4" step="1e-2" t_end="4" fixed_step_zero_crossings="on"/>
    <block type="Sine" name="drive" amplitude="2" frequency="5"/>
    <block type="Saturation" name="limit" lower="-1" upper="1"/>
    <block type="Integrator" name="x"/>
    <connect from="drive.y" to="limit.u"/>
    <connect from="limit.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)xml");
  for (const char* solver : {"ode4", "ros2"}) {
    SCOPED_TRACE(solver);
    SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    ExpectRestoreRepeatsTheRun(system, settings, 1.234, 2.5);
  }
}

// Discrete controller, zero-order holds, the arm's mechanism with PMSM drives and friction.
TEST(SimulatorSnapshot, DiscreteBlocksAndMechanismRepeatBitwise) {
  const System system =
      Compile(xml::ReadModelFile(testing::SourcePath("models/robot6dof/cosim_closed_loop.xml")));
  ASSERT_GT(system.rates().size(), 0u);
  for (const char* solver : {"ode4", "ode45", "ode23s", "ros2"}) {
    SCOPED_TRACE(solver);
    SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    settings.rtol = 1e-6;
    // A save between sample hits too (0.0305), so that a held discrete state is saved.
    ExpectRestoreRepeatsTheRun(system, settings, 0.0305, 0.06);
  }
}

// ode45 and ode23s with zero crossings located (Saturation modes) and dense-output rows.
TEST(SimulatorSnapshot, VariableStepSolverWithCrossingsRepeatsBitwise) {
  const System system = CompileXml(R"xml(<model name="limited">
    <simulation solver="ode45" t_end="4" rtol="1e-8" atol="1e-10" output_interval="0.01"/>
    <block type="Sine" name="drive" amplitude="2" frequency="5"/>
    <block type="Saturation" name="limit" lower="-1" upper="1"/>
    <block type="Integrator" name="x"/>
    <block type="UnitDelay" name="sampled" Ts="0.05"/>
    <connect from="drive.y" to="limit.u"/>
    <connect from="limit.y" to="x.u"/>
    <connect from="x.y" to="sampled.u"/>
    <log signal="x.y" as="x"/>
    <log signal="sampled.y" as="sampled"/>
  </model>)xml");
  ExpectRestoreRepeatsTheRun(system, system.settings(), 1.234, 2.5);
  SimulationSettingsValues settings = system.settings();
  settings.solver = "ode23s";
  settings.rtol = 1e-5;
  ExpectRestoreRepeatsTheRun(system, settings, 1.234, 2.5);
  // Stepping over the sampler's hits (nothing continuous reads it): saved inside a step that
  // passes hits.
  for (const char* solver : {"ode45", "ode23s"}) {
    SCOPED_TRACE(solver);
    settings.solver = solver;
    settings.sample_hits = SimulationSettingsValues::SampleHits::kStepOver;
    ExpectRestoreRepeatsTheRun(system, settings, 1.234, 2.5);
  }
}

// Scaled absolute tolerances (auto_scale_atol) are part of what a snapshot holds: `grown`
// keeps growing, so the tolerances at the save are below those at the end of the first run.
TEST(SimulatorSnapshot, ScaledTolerancesRepeatBitwise) {
  const System system = CompileXml(R"xml(<model name="growing">
    <simulation solver="ode45" t_end="4" rtol="1e-5" atol="1e-8" auto_scale_atol="on"
                max_step="1" output_interval="0.01"/>
    <block type="Sine" name="drive" amplitude="2" frequency="5"/>
    <block type="Integrator" name="x"/>
    <block type="Expression" name="rate" expr="1 + 10 * u1 * u1"/>
    <block type="Integrator" name="grown"/>
    <connect from="drive.y" to="x.u"/>
    <connect from="x.y" to="rate.u1"/>
    <connect from="rate.y" to="grown.u"/>
    <log signal="x.y" as="x"/>
    <log signal="grown.y" as="grown"/>
  </model>)xml");
  for (const char* solver : {"ode45", "ode23s"}) {
    SCOPED_TRACE(solver);
    SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    ExpectRestoreRepeatsTheRun(system, settings, 1.234, 2.5);
  }
}

// CVODE restarts at the restored point: the continuation is within the tolerance of the
// original, and two restores from one snapshot repeat each other bitwise.
TEST(SimulatorSnapshot, SundialsRestartsAtTheRestoredPoint) {
  const System system = CompileXml(kIntegratedInput);
  SimulationSettingsValues settings = system.settings();
  settings.solver = "cvode-bdf";
  settings.rtol = 1e-9;
  settings.atol = 1e-12;
  Simulator sim(system, settings);
  sim.Initialize();
  const InputHandle u = sim.FindInput("u");
  const double value[] = {1.0, -2.0};
  sim.SetInput(u, value);
  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  const SimulationSnapshot snapshot = sim.SaveState();
  ASSERT_TRUE(sim.AdvanceTo(1.5).ok);
  const Eigen::VectorXd original = sim.state().x;
  sim.RestoreState(snapshot);
  ASSERT_TRUE(sim.AdvanceTo(1.5).ok);
  const Eigen::VectorXd first = sim.state().x;
  sim.RestoreState(snapshot);
  ASSERT_TRUE(sim.AdvanceTo(1.5).ok);
  EXPECT_EQ(sim.state().x, first);
  EXPECT_NEAR(first[0], original[0], 1e-8);
  EXPECT_NEAR(first[0], 1.5, 1e-8);
  EXPECT_NEAR(first[1], -3.0, 1e-8);
}

TEST(SimulatorSnapshot, SavingIntoASnapshotReusesIt) {
  const System system = CompileXml(kIntegratedInput);
  Simulator sim(system, system.settings());
  sim.Initialize();
  SimulationSnapshot snapshot;
  EXPECT_FALSE(snapshot.valid());
  sim.SaveState(&snapshot);
  EXPECT_TRUE(snapshot.valid());
  const double value[] = {2.0, 0.0};
  sim.SetInput(sim.FindInput("u"), value);
  ASSERT_TRUE(sim.AdvanceTo(1.0).ok);
  sim.SaveState(&snapshot);
  EXPECT_EQ(snapshot.time(), 1.0);
  EXPECT_NEAR(snapshot.continuous_states()[0], 2.0, 1e-12);
}

}  // namespace
}  // namespace twinblocks::graph
