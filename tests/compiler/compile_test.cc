// Compile: hierarchy, Goto/From, comment-out, widths, sample times and ordering, checked on
// small inline models and on what a run of them gives.
#include "compiler/compile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

System CompileText(const std::string& body) {
  return Compile(
      xml::ReadModelString("<model name=\"m\" format=\"1\">" + body + "</model>", "m.xml"));
}

std::string CompileError(const std::string& body) {
  try {
    CompileText(body);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

// The value of a logged signal after running the model to t_end.
double FinalValue(const System& sys, const std::string& column, double t_end = 1.0) {
  SimulationSettingsValues s = sys.settings();
  s.t_end = t_end;
  Simulator sim(sys, s);
  EXPECT_TRUE(sim.Run().ok);
  const Recording& r = sim.recording();
  return r.value(r.num_rows() - 1, r.FindColumn(column));
}

TEST(CompileTest, SubsystemBoundaryPortsBecomePlainLines) {
  const System sys = CompileText(R"(
    <block type="Constant" name="c" value="3"/>
    <subsystem name="ctrl">
      <inport name="e"/><outport name="u"/>
      <block type="Gain" name="kp" k="2"/>
      <connect from=".e" to="kp.u"/><connect from="kp.y" to=".u"/>
    </subsystem>
    <block type="Gain" name="out" k="10"/>
    <connect from="c.y" to="ctrl.e"/><connect from="ctrl.u" to="out.u"/>
    <log signal="out.y" as="y"/><log signal="ctrl.u" as="inner"/>)");
  EXPECT_EQ(sys.num_blocks(), 3);
  EXPECT_GE(sys.FindBlock("ctrl/kp"), 0);
  EXPECT_EQ(sys.logged_signals()[1].source, "ctrl/kp.y");
  EXPECT_DOUBLE_EQ(FinalValue(sys, "y"), 60.0);
  EXPECT_DOUBLE_EQ(FinalValue(sys, "inner"), 6.0);
}

TEST(CompileTest, GotoFromCarryASignalAcrossSubsystems) {
  const System sys = CompileText(R"(
    <block type="Constant" name="c" value="5"/>
    <block type="Goto" name="send" tag="F1P3"/>
    <connect from="c.y" to="send.u"/>
    <subsystem name="deep">
      <block type="From" name="get" tag="F1P3"/>
      <block type="Gain" name="g" k="2"/>
      <connect from="get.y" to="g.u"/>
    </subsystem>
    <log signal="deep/g.y" as="y"/>)");
  EXPECT_EQ(sys.num_blocks(), 2) << "Goto and From are resolved away";
  EXPECT_DOUBLE_EQ(FinalValue(sys, "y"), 10.0);
  EXPECT_NE(CompileError(R"(<block type="From" name="f" tag="nope"/>)")
                .find("no Goto block with "
                      "tag 'nope'"),
            std::string::npos);
}

TEST(CompileTest, CommentedBlockLeavesWithItsLines) {
  const System sys = CompileText(R"(
    <block type="Constant" name="c" value="1"/>
    <block type="Gain" name="g" k="2" commented="true"/>
    <connect from="c.y" to="g.u"/>
    <log signal="c.y" as="y"/>)");
  EXPECT_EQ(sys.num_blocks(), 1);
  EXPECT_EQ(sys.FindBlock("g"), -1);
}

TEST(CompileTest, UnconnectedInputIsAnErrorNamingTheBlock) {
  const std::string msg = CompileError(R"(<block type="Gain" name="g" k="2"/>)");
  EXPECT_NE(msg.find("m.xml:1: block 'g' (Gain): input 'u' is not connected"), std::string::npos)
      << msg;
}

TEST(CompileTest, VectorWidthsPropagateThroughAFeedbackLoop) {
  // x' = -x with a 3-vector state: the loop's width comes from the integrator's x0.
  const System sys = CompileText(R"(
    <block type="Integrator" name="x" x0="[1, 2, 3]"/>
    <block type="Gain" name="k" k="-1"/>
    <connect from="x.y" to="k.u"/><connect from="k.y" to="x.u"/>
    <log signal="x.y" as="x"/>)");
  EXPECT_EQ(sys.num_continuous_states(), 3);
  EXPECT_NEAR(FinalValue(sys, "x[2]"), 3.0 * std::exp(-1.0), 1e-3);
}

TEST(CompileTest, SampleTimesAreInheritedFromInputs) {
  const System sys = CompileText(R"(
    <block type="Clock" name="t"/>
    <block type="ZeroOrderHold" name="zoh" Ts="0.1"/>
    <block type="Gain" name="g" k="2"/>
    <block type="UnitDelay" name="d"/>
    <block type="Constant" name="c" value="1"/>
    <block type="Gain" name="gc" k="3"/>
    <connect from="t.t" to="zoh.u"/><connect from="zoh.y" to="g.u"/><connect from="g.y" to="d.u"/>
    <connect from="c.y" to="gc.u"/>)");
  const auto rate = [&](const char* path) { return sys.block(sys.FindBlock(path)).sample_time(); };
  EXPECT_TRUE(rate("g").is_discrete());
  EXPECT_DOUBLE_EQ(rate("g").period, 0.1);
  EXPECT_DOUBLE_EQ(rate("d").period, 0.1) << "UnitDelay with Ts = -1 inherits 0.1";
  EXPECT_TRUE(rate("gc").is_constant());
  EXPECT_EQ(sys.rates().size(), 1u);
  // A formula of t fed only by constants still changes with time: it is not constant.
  const System of_t = CompileText(R"xml(
    <block type="Constant" name="c" value="[0, 1]"/>
    <block type="Expression" name="e" expr="u + sin(t)"/>
    <block type="Expression" name="k" expr="2 * u"/>
    <connect from="c.y" to="e.u1"/><connect from="c.y" to="k.u1"/>)xml");
  EXPECT_TRUE(of_t.block(of_t.FindBlock("e")).sample_time().is_continuous());
  EXPECT_TRUE(of_t.block(of_t.FindBlock("k")).sample_time().is_constant());
  const std::string msg = CompileError(R"(
    <block type="Clock" name="t"/><block type="UnitDelay" name="d"/>
    <connect from="t.t" to="d.u"/>)");
  EXPECT_NE(msg.find("cannot inherit a discrete sample time"), std::string::npos) << msg;
}

// A solver evaluation runs the continuous blocks that states or zero crossings need, through
// other continuous blocks; one that feeds only a discrete block or a log waits for the major
// steps, but an output row between them computes it.
TEST(CompileTest, SolverEvaluationsRunOnlyWhatTheDerivativesNeed) {
  const System sys = CompileText(R"(
    <simulation solver="ode45" t_end="1" output_interval="0.01"/>
    <block type="Clock" name="t"/>
    <block type="Gain" name="rate" k="2"/>
    <block type="Integrator" name="x"/>
    <block type="Gain" name="seen" k="3"/>
    <block type="Gain" name="logged" k="5"/>
    <block type="ZeroOrderHold" name="zoh" Ts="0.1"/>
    <connect from="t.t" to="rate.u"/><connect from="rate.y" to="x.u"/>
    <connect from="x.y" to="seen.u"/><connect from="seen.y" to="zoh.u"/>
    <connect from="x.y" to="logged.u"/>
    <log signal="logged.y"/><log signal="zoh.y"/>)");
  auto runs = [&sys](const std::vector<ExecutionEntry>& order, const char* path) {
    const blocks::Block* b = &sys.block(sys.FindBlock(path));
    for (const ExecutionEntry& e : order) {
      if (e.block == b) return true;
    }
    return false;
  };
  for (const char* path : {"t", "rate", "x"}) {
    EXPECT_TRUE(runs(sys.minor_order(), path)) << path;
    EXPECT_TRUE(runs(sys.continuous_order(), path)) << path;
  }
  for (const char* path : {"seen", "logged"}) {
    EXPECT_FALSE(runs(sys.minor_order(), path)) << path;
    EXPECT_TRUE(runs(sys.continuous_order(), path)) << path;
  }
  EXPECT_FALSE(runs(sys.continuous_order(), "zoh"));
  // x = t^2; the rows between the solver's steps record 5 x there.
  Simulator sim(sys, sys.settings());
  ASSERT_TRUE(sim.Run().ok);
  const Recording& r = sim.recording();
  ASSERT_EQ(r.num_rows(), 101);
  EXPECT_LT(sim.stats().solver.steps, r.num_rows() - 1) << "some rows fall between steps";
  for (int row = 0; row < r.num_rows(); ++row) {
    const double t = r.time(row);
    EXPECT_NEAR(r.value(row, r.FindColumn("logged.y")), 5 * t * t, 1e-12) << "t = " << t;
  }
  EXPECT_NEAR(r.value(100, r.FindColumn("zoh.y")), 3.0, 1e-12);
}

TEST(CompileTest, StatePortFeedbackIsNoAlgebraicLoop) {
  // y needs x0 directly, but the state port does not: x0 = -state is a legal loop.
  EXPECT_NO_THROW(CompileText(R"(
    <block type="Constant" name="one" value="1"/>
    <block type="Integrator" name="i" reset="rising" x0_source="external" state_port="true"/>
    <block type="Gain" name="neg" k="-1"/>
    <connect from="one.y" to="i.u"/><connect from="one.y" to="i.reset"/>
    <connect from="i.state" to="neg.u"/><connect from="neg.y" to="i.x0"/>)"));
  // Through y it is one: the message names the cycle.
  const std::string msg = CompileError(R"(
    <block type="Constant" name="one" value="1"/>
    <block type="Integrator" name="i" reset="rising" x0_source="external" state_port="true"/>
    <block type="Gain" name="neg" k="-1"/>
    <connect from="one.y" to="i.u"/><connect from="one.y" to="i.reset"/>
    <connect from="i.y" to="neg.u"/><connect from="neg.y" to="i.x0"/>)");
  EXPECT_NE(msg.find("algebraic loop: i -> neg -> i"), std::string::npos) << msg;
}

TEST(CompileTest, DefineParametersAndWordsReachTheBlocks) {
  const System sys = CompileText(R"(
    <var name="base" value="4"/>
    <define name="Scaled" params="factor rel">
      <inport name="u"/><outport name="y"/>
      <block type="Gain" name="g" k="factor*base"/>
      <block type="CompareToConstant" name="cmp" op="rel" value="1"/>
      <connect from=".u" to="g.u"/><connect from="g.y" to="cmp.u"/>
      <connect from="cmp.y" to=".y"/>
    </define>
    <block type="Constant" name="c" value="0.5"/>
    <block type="Scaled" name="s" factor="0.25" rel="&gt;="/>
    <connect from="c.y" to="s.u"/>
    <log signal="s/g.y" as="scaled"/><log signal="s.y" as="flag"/>)");
  EXPECT_DOUBLE_EQ(FinalValue(sys, "scaled"), 0.5);  // 0.5 * 0.25 * 4
  EXPECT_DOUBLE_EQ(FinalValue(sys, "flag"), 0.0);    // 0.5 >= 1 is false
  const std::string msg = CompileError(R"(
    <define name="D" params="a"><block type="Constant" name="c" value="a"/></define>
    <block type="D" name="d" b="1"/>)");
  EXPECT_NE(msg.find("unknown parameter 'b'"), std::string::npos) << msg;
  // A define parameter that is not a number, used as one: the message says which and why.
  const std::string typo = CompileError(R"(
    <define name="D" params="a"><block type="Constant" name="c" value="2*a"/></define>
    <block type="D" name="d" a="1+"/>)");
  EXPECT_NE(typo.find("block 'd/c' (Constant)"), std::string::npos) << typo;
  EXPECT_NE(typo.find("the define parameter 'a' is '1+', not a number"), std::string::npos) << typo;
}

// sample_hits is land (the default) or step_over; anything else is one line with the file and
// line.
TEST(CompileTest, SampleHitsIsLandOrStepOver) {
  const std::string model = R"(
    <block type="Constant" name="c" value="1"/><block type="Integrator" name="x"/>
    <connect from="c.y" to="x.u"/><log signal="x.y" as="x"/>)";
  using SampleHits = SimulationSettingsValues::SampleHits;
  EXPECT_EQ(CompileText(R"(<simulation t_end="1"/>)" + model).settings().sample_hits,
            SampleHits::kLand);
  EXPECT_EQ(
      CompileText(R"(<simulation t_end="1" sample_hits="land"/>)" + model).settings().sample_hits,
      SampleHits::kLand);
  const System sys = CompileText(R"(<simulation t_end="1" sample_hits="step_over"/>)" + model);
  EXPECT_EQ(sys.settings().sample_hits, SampleHits::kStepOver);
  EXPECT_NEAR(FinalValue(sys, "x"), 1.0, 1e-12);
  const std::string error = CompileError(R"(<simulation sample_hits="skip"/>)" + model);
  EXPECT_NE(error.find("m.xml:1: simulation attribute 'sample_hits' must be land or step_over, "
                       "got 'skip'"),
            std::string::npos)
      << error;
}

// jacobian_steps reaches the settings as a whole number; anything else is one line with the
// file and line.
TEST(CompileTest, JacobianStepsIsAWholeNumberOfSteps) {
  const std::string model = R"(
    <block type="Constant" name="c" value="1"/><block type="Integrator" name="x"/>
    <connect from="c.y" to="x.u"/><log signal="x.y" as="x"/>)";
  const System sys =
      CompileText(R"(<simulation solver="ode23s" t_end="1" jacobian_steps="3"/>)" + model);
  ASSERT_TRUE(sys.settings().jacobian_steps.has_value());
  EXPECT_EQ(*sys.settings().jacobian_steps, 3);
  EXPECT_DOUBLE_EQ(FinalValue(sys, "x"), 1.0);
  for (const char* bad : {"0", "2.5", "-1"}) {
    const std::string error =
        CompileError(std::string(R"(<simulation jacobian_steps=")") + bad + R"("/>)" + model);
    EXPECT_NE(error.find("m.xml:1: simulation attribute 'jacobian_steps' must be a whole number "
                         ">= 1, got " +
                         std::string(bad)),
              std::string::npos)
        << error;
  }
}

// The consecutive-crossings guard's settings reach the simulation; values it cannot use are
// one line with the file and line.
TEST(CompileTest, ConsecutiveZeroCrossingSettings) {
  const std::string model = R"(
    <block type="Constant" name="c" value="1"/><block type="Integrator" name="x"/>
    <connect from="c.y" to="x.u"/><log signal="x.y" as="x"/>)";
  const System sys = CompileText(
      R"(<simulation t_end="1" max_consecutive_zc="20" zc_time_tolerance="1e-10"/>)" + model);
  EXPECT_EQ(sys.settings().max_consecutive_zc, 20);
  EXPECT_EQ(sys.settings().zc_time_tolerance, 1e-10);
  for (const char* bad : {"0", "2.5", "-1"}) {
    const std::string error =
        CompileError(std::string(R"(<simulation max_consecutive_zc=")") + bad + R"("/>)" + model);
    EXPECT_NE(error.find("m.xml:1: simulation attribute 'max_consecutive_zc' must be a whole "
                         "number >= 1, got " +
                         std::string(bad)),
              std::string::npos)
        << error;
  }
  for (const char* bad : {"-1e-12", "1"}) {
    const std::string error =
        CompileError(std::string(R"(<simulation zc_time_tolerance=")") + bad + R"("/>)" + model);
    EXPECT_NE(error.find("m.xml:1: simulation attribute 'zc_time_tolerance' must be in [0, 1), "
                         "got " +
                         std::string(bad)),
              std::string::npos)
        << error;
  }
}

// An unknown solver in the file is found with its line, not later when the run makes it.
TEST(CompileTest, UnknownSolverInTheFileIsOneLineWithItsLine) {
  const std::string model = R"(
    <block type="Constant" name="c" value="1"/><block type="Integrator" name="x"/>
    <connect from="c.y" to="x.u"/><log signal="x.y" as="x"/>)";
  const std::string error = CompileError(R"(<simulation solver="ode54" t_end="1"/>)" + model);
  EXPECT_NE(error.find("m.xml:1: simulation attribute 'solver': unknown solver 'ode54'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("valid solvers: ode1, ode2"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// Run settings the simulator cannot use are found in the file, with their line.
TEST(CompileTest, RunSettingsOutOfRangeAreOneLineWithTheirLine) {
  const std::string model = R"(
    <block type="Constant" name="c" value="1"/><block type="Integrator" name="x"/>
    <connect from="c.y" to="x.u"/><log signal="x.y" as="x"/>)";
  const std::pair<const char*, const char*> cases[] = {
      {R"(step="0")", "simulation attribute 'step' must be a positive number, got 0"},
      {R"(atol="-1e-9")", "simulation attribute 'atol' must be a positive number, got -1e-9"},
      // A NaN or an infinity nobody asked for is refused as the expression's value.
      {R"(rtol="0/0")",
       "simulation attribute 'rtol': cannot evaluate '0/0': the result is not a number"},
      {R"(max_step="1/0")",
       "simulation attribute 'max_step': cannot evaluate '1/0': the result is infinite"},
      {R"(max_step="inf")", "simulation attribute 'max_step' must be a finite number, got inf"},
      {R"(t_end="-1")", "simulation attribute 't_end' (-1) must be after t_start (0)"},
  };
  for (const auto& [attribute, expected] : cases) {
    const std::string error = CompileError(std::string("<simulation ") + attribute + "/>" + model);
    EXPECT_NE(error.find(std::string("m.xml:1: ") + expected), std::string::npos) << error;
  }
  // A start after the default end, with no end in the file, waits for the run's t_end.
  EXPECT_EQ(CompileText(R"(<simulation t_start="20"/>)" + model).settings().t_start, 20.0);
}

// An error inside a library's define names the library's line, the block's path, and where
// the user placed the instance it is in.
TEST(CompileTest, ErrorInAnIncludedDefineSaysWhereItsInstanceIsPlaced) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "compile_test_placement";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lib.xml") << R"(<model name="lib">
  <define name="Scaled" params="k">
    <inport name="u"/><outport name="y"/>
    <block type="Gain" name="g" k="k"/>
    <block type="Integrator" name="x" x0="1" lower="k" upper="0"/>
    <connect from=".u" to="g.u"/><connect from="g.y" to="x.u"/><connect from="x.y" to=".y"/>
  </define>
</model>)";
  std::ofstream(dir / "top.xml") << R"(<model name="top">
  <include file="lib.xml"/>
  <block type="Constant" name="c" value="1"/>
  <subsystem name="plant">
    <inport name="u"/>
    <block type="Scaled" name="s" k="2"/>
    <connect from=".u" to="s.u"/>
  </subsystem>
  <connect from="c.y" to="plant.u"/>
</model>)";
  try {
    Compile(xml::ReadModelFile((dir / "top.xml").string()));
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("lib.xml:5: block 'plant/s/x' (Integrator): "), std::string::npos) << text;
    // Down through the subsystem, to the instance of the define.
    EXPECT_NE(text.find("(in 'plant/s', placed at " + (dir / "top.xml").string() + ":6)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  }
}

// Through nested libraries: every instance on the way that is written in another file than
// the error, innermost first.
TEST(CompileTest, ErrorInANestedDefineTracesEveryPlacement) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "compile_test_nested_placement";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lib.xml") << R"(<model name="lib">
  <define name="Scaled" params="k">
    <inport name="u"/><outport name="y"/>
    <block type="Integrator" name="x" x0="1" lower="k" upper="0"/>
    <connect from=".u" to="x.u"/><connect from="x.y" to=".y"/>
  </define>
</model>)";
  std::ofstream(dir / "mid.xml") << R"(<model name="mid">
  <include file="lib.xml"/>
  <define name="Pair" params="k">
    <inport name="u"/>
    <block type="Scaled" name="first" k="-1"/>
    <block type="Scaled" name="second" k="k"/>
    <connect from=".u" to="first.u"/><connect from=".u" to="second.u"/>
  </define>
</model>)";
  std::ofstream(dir / "top.xml") << R"(<model name="top">
  <include file="mid.xml"/>
  <block type="Constant" name="c" value="1"/>
  <block type="Pair" name="pair" k="2"/>
  <connect from="c.y" to="pair.u"/>
</model>)";
  try {
    Compile(xml::ReadModelFile((dir / "top.xml").string()));
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("lib.xml:4: block 'pair/second/x' (Integrator): "), std::string::npos)
        << text;
    EXPECT_NE(text.find("(in 'pair/second', placed at " + (dir / "mid.xml").string() +
                        ":6; in 'pair', placed at " + (dir / "top.xml").string() + ":4)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace twinblocks::graph
