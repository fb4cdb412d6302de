// Per-state absolute tolerances (Simulink's block parameter "Absolute tolerance"): a state far
// smaller than the simulation's atol is integrated as accurately as its own tolerance asks, by
// every variable-step solver, and the blocks' parameters are checked at compile.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;

// x' = a w cos(w t), x(0) = 0: x = a sin(w t) with w = 10, over 10 s at rtol 1e-3.
// `simulation` adds attributes to <simulation> (the tolerances, max_step); `abs_tol` is the
// Integrator's parameter as written (empty: none).
std::string SineModel(const std::string& solver, const std::string& amplitude,
                      const std::string& simulation, const std::string& abs_tol) {
  const std::string tol = abs_tol.empty() ? "" : " abs_tol=\"" + abs_tol + "\"";
  return R"(<model name="sine" format="1">
    <simulation solver=")" +
         solver + R"(" t_end="10" rtol="1e-3" output_interval="0.01" )" + simulation + R"(/>
    <block type="Sine" name="rate" amplitude=")" +
         amplitude + R"(*10" frequency="10" phase="pi/2"/>
    <block type="Integrator" name="x")" +
         tol + R"(/>
    <connect from="rate.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)";
}

// a = 1e-9, three orders of magnitude below the simulation's atol (1e-6).
std::string SmallSine(const std::string& solver, const std::string& abs_tol) {
  return SineModel(solver, "1e-9", R"(atol="1e-6" max_step="0.5")", abs_tol);
}

struct Accuracy {
  double max_error = 0.0;  ///< largest |x - a sin(w t)| over the recorded rows
  long steps = 0;
};

// Runs the model and compares its only log with a sin(10 t).
Accuracy RunSine(const std::string& xml, double amplitude = 1e-9) {
  const System system = Compile(xml::ReadModelString(xml, "sine.xml"));
  Simulator sim(system, system.settings());
  const SimulationOutcome outcome = sim.Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  Accuracy a;
  const Recording& r = sim.recording();
  for (int i = 0; i < r.num_rows(); ++i) {
    const double t = r.time(i);
    a.max_error = std::max(a.max_error, std::abs(r.value(i, 0) - amplitude * std::sin(10.0 * t)));
  }
  a.steps = sim.stats().solver.steps;
  return a;
}

class AbsoluteToleranceBySolver : public ::testing::TestWithParam<const char*> {};

// With the simulation's atol alone the sine's error test passes at any step (its errors are
// far below 1e-6), so the steps grow to max_step (0.5 s, 5 radians of the sine) and the result
// is off by a good part of its amplitude; with abs_tol = 1e-15 the steps follow rtol and the
// result is within 2 % of its amplitude. Measured: without 3.0e-10 (ode45) to 7.5e-9
// (cvode-bdf, cvode-adams), with 1.4e-14 (arkode-erk) to 1.07e-11 (ode45).
TEST_P(AbsoluteToleranceBySolver, ASmallStateIsAsAccurateAsItsOwnToleranceAsks) {
  const Accuracy loose = RunSine(SmallSine(GetParam(), ""));
  const Accuracy own = RunSine(SmallSine(GetParam(), "1e-15"));
  EXPECT_GT(loose.max_error, 1e-10) << "steps " << loose.steps;
  EXPECT_LT(own.max_error, 2e-11) << "steps " << own.steps;
  EXPECT_GT(own.steps, loose.steps);
  std::printf("%s: max error %.3g (auto, %ld steps), %.3g (abs_tol 1e-15, %ld steps)\n", GetParam(),
              loose.max_error, loose.steps, own.max_error, own.steps);
  RecordProperty("error_auto", std::to_string(loose.max_error));
  RecordProperty("error_own", std::to_string(own.max_error));
}

// `auto` is the simulation's atol: bit for bit the run without the parameter.
TEST_P(AbsoluteToleranceBySolver, AutoIsTheSimulationsTolerance) {
  const Accuracy unset = RunSine(SmallSine(GetParam(), ""));
  const Accuracy automatic = RunSine(SmallSine(GetParam(), "auto"));
  EXPECT_EQ(unset.max_error, automatic.max_error);
  EXPECT_EQ(unset.steps, automatic.steps);
}

INSTANTIATE_TEST_SUITE_P(VariableStep, AbsoluteToleranceBySolver,
                         ::testing::Values("ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams",
                                           "arkode-erk", "arkode-dirk", "ida"));

System CompileBody(const std::string& body) {
  return Compile(xml::ReadModelString(
      R"(<model name="m" format="1"><simulation t_end="1" atol="1e-6"/>)" + body + "</model>",
      "m.xml"));
}

// Each block's tolerances land on its own states, in the order the states are laid out; the
// states of blocks without one (and auto) get the simulation's atol.
TEST(AbsoluteTolerance, EachBlockSetsItsOwnStates) {
  const System system = CompileBody(R"(
    <block type="Constant" name="u" value="[1, 2]"/>
    <block type="Integrator" name="a" abs_tol="[1e-9, 1e-8]"/>
    <block type="Integrator" name="b"/>
    <block type="SecondOrderIntegrator" name="c" abs_tol_x="1e-7" abs_tol_dx="auto"/>
    <block type="Constant" name="s" value="1"/>
    <block type="StateSpace" name="d" A="[[-1, 0], [0, -2]]" B="[[1], [1]]" C="[1, 1]" abs_tol="1e-5"/>
    <block type="TransferFunction" name="e" den="[1, 3, 2]" abs_tol="[1e-4, 1e-3]"/>
    <connect from="u.y" to="a.u"/>
    <connect from="u.y" to="b.u"/>
    <connect from="u.y" to="c.u"/>
    <connect from="s.y" to="d.u"/>
    <connect from="s.y" to="e.u"/>)");
  std::vector<double> expected;
  const std::vector<std::pair<std::string, std::vector<double>>> own = {
      {"a", {1e-9, 1e-8}},
      {"b", {1e-6, 1e-6}},
      {"c", {1e-7, 1e-7, 1e-6, 1e-6}},
      {"d", {1e-5, 1e-5}},
      {"e", {1e-4, 1e-3}}};
  const Eigen::VectorXd tol = system.StateAbsoluteTolerances(1e-6);
  ASSERT_EQ(tol.size(), system.num_continuous_states());
  ASSERT_EQ(tol.size(), 12);
  // The layout's order is the blocks'; find each block's first state by its description.
  for (const auto& [block, values] : own) {
    int first = -1;
    for (int i = 0; i < system.num_continuous_states() && first < 0; ++i) {
      if (system.DescribeState(i).rfind(block + " ", 0) == 0) first = i;
    }
    ASSERT_GE(first, 0) << block;
    for (size_t k = 0; k < values.size(); ++k) {
      EXPECT_EQ(tol[first + static_cast<int>(k)], values[k]) << block << " state " << k;
    }
  }
}

TEST(AbsoluteTolerance, NoBlockOfItsOwnLeavesTheSimulationsAlone) {
  const System system = CompileBody(R"(
    <block type="Constant" name="u" value="1"/>
    <block type="Integrator" name="a" abs_tol="auto"/>
    <connect from="u.y" to="a.u"/>)");
  EXPECT_EQ(system.StateAbsoluteTolerances(1e-6).size(), 0);
}

void ExpectBadTolerance(const std::string& block, const std::string& what) {
  try {
    CompileBody("<block type=\"Constant\" name=\"u\" value=\"[1, 2]\"/>\n" + block +
                "\n<connect from=\"u.y\" to=\"a.u\"/>");
    ADD_FAILURE() << "compiled: " << block;
  } catch (const ModelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("m.xml:2: block 'a'")) << block;
    EXPECT_THAT(e.what(), HasSubstr(what)) << block;
  }
}

TEST(AbsoluteTolerance, BadValuesAreOneLineAtTheBlock) {
  ExpectBadTolerance(R"(<block type="Integrator" name="a" abs_tol="0"/>)",
                     "parameter 'abs_tol' must be auto or a positive number, got 0");
  ExpectBadTolerance(R"(<block type="Integrator" name="a" abs_tol="-1e-9"/>)",
                     "must be auto or a positive number, got -1e-09");
  ExpectBadTolerance(R"(<block type="Integrator" name="a" abs_tol="inf"/>)",
                     "must be auto or a positive number, got inf");
  ExpectBadTolerance(R"(<block type="Integrator" name="a" abs_tol="[1e-9, 1e-9, 1e-9]"/>)",
                     "parameter 'abs_tol' has 3 values, expected 1 or 2 (the state width)");
  ExpectBadTolerance(R"(<block type="Integrator" name="a" abs_tol="automatic"/>)", "abs_tol");
  ExpectBadTolerance(R"(<block type="SecondOrderIntegrator" name="a" abs_tol_dx="[1, 2, 3]"/>)",
                     "parameter 'abs_tol_dx' has 3 values, expected 1 or 2");
  ExpectBadTolerance(R"(<block type="StateSpace" name="a" A="-1" B="[1, 1]" abs_tol="[1, 1]"/>)",
                     "parameter 'abs_tol' has 2 values, expected 1 (the rows of A)");
  ExpectBadTolerance(R"(<block type="TransferFunction" name="a" abs_tol="-inf"/>)",
                     "must be auto or a positive number, got -inf");
}

// Simulink's "Auto scale absolute tolerance" and `auto` absolute tolerance. x' = a w cos(w t):
// x = a sin(w t) with a = 1e6. Near each zero of x a fixed atol of 1e-6 asks for an error of
// 1e-12 of the amplitude and shortens the steps there; scaled, each state's tolerance grows to
// rtol times the largest |x| reached (1e3 here) and keeps it through the zeros.
std::string LargeSine(const std::string& solver, const std::string& tolerance,
                      const std::string& abs_tol = "") {
  return SineModel(solver, "1e6", R"(max_step="1" )" + tolerance, abs_tol);
}

Accuracy RunLargeSine(const std::string& xml) { return RunSine(xml, 1e6); }

class AutoScaleBySolver : public ::testing::TestWithParam<const char*> {};

// Measured, steps fixed -> scaled (largest error, of the amplitude 1e6): ode23 354 -> 241 (312
// -> 735), ode45 49 -> 40 (1.1e4 -> 2.2e4), ode23s 490 -> 333 (2.5e3 -> 6.0e3), cvode-bdf 336
// -> 246 (6.3e3 -> 1.0e4), cvode-adams 241 -> 178 (4.0e3 -> 3.4e3), arkode-erk 452 -> 284 (13
// -> 50), arkode-dirk 241 -> 171 (283 -> 672), ida 436 -> 317 (6.9e3 -> 6.8e3): every error
// within 2.3 % of the amplitude, as rtol 1e-3 allows over 16 periods.
TEST_P(AutoScaleBySolver, ScaledTolerancesTakeFewerStepsThroughTheZerosOfALargeState) {
  const Accuracy fixed = RunLargeSine(LargeSine(GetParam(), R"(atol="1e-6")"));
  const Accuracy scaled =
      RunLargeSine(LargeSine(GetParam(), R"(atol="1e-6" auto_scale_atol="on")"));
  const Accuracy automatic = RunLargeSine(LargeSine(GetParam(), R"(atol="auto")"));
  EXPECT_LT(scaled.steps, fixed.steps);
  EXPECT_LT(fixed.max_error, 3e4);
  EXPECT_LT(scaled.max_error, 3e4);
  // `auto` at rtol 1e-3 starts at 1e-6 and scales: the same run.
  EXPECT_EQ(automatic.steps, scaled.steps);
  EXPECT_EQ(automatic.max_error, scaled.max_error);
  RecordProperty("steps_fixed", static_cast<int>(fixed.steps));
  RecordProperty("steps_scaled", static_cast<int>(scaled.steps));
}

// A block's own tolerance stays as given: the sine's only state has one, so scaling changes
// nothing, bit for bit; without it the same run scales.
TEST_P(AutoScaleBySolver, ABlocksOwnToleranceStaysAsGiven) {
  const Accuracy own = RunLargeSine(LargeSine(GetParam(), R"(atol="1e-6")", "1e-6"));
  const Accuracy own_scaled =
      RunLargeSine(LargeSine(GetParam(), R"(atol="1e-6" auto_scale_atol="on")", "1e-6"));
  EXPECT_EQ(own.steps, own_scaled.steps);
  EXPECT_EQ(own.max_error, own_scaled.max_error);
  const Accuracy scaled =
      RunLargeSine(LargeSine(GetParam(), R"(atol="1e-6" auto_scale_atol="on")"));
  EXPECT_NE(scaled.steps, own_scaled.steps);
}

INSTANTIATE_TEST_SUITE_P(VariableStep, AutoScaleBySolver,
                         ::testing::Values("ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams",
                                           "arkode-erk", "arkode-dirk", "ida"));

// Simulink's rule for the start of `auto`: 1e-6 for rtol >= 1e-3, rtol / 1000 below.
TEST(AutoScale, AutoStartsFromTheRelativeTolerance) {
  SimulationSettingsValues s;
  EXPECT_EQ(s.StartingAtol(), 1e-6);  // unset atol, not scaled
  s.auto_scale_atol = true;
  EXPECT_EQ(s.StartingAtol(), 1e-6);  // rtol's default, 1e-3
  s.rtol = 1e-2;
  EXPECT_EQ(s.StartingAtol(), 1e-6);
  s.rtol = 1e-5;
  EXPECT_DOUBLE_EQ(s.StartingAtol(), 1e-8);
  s.atol = 3e-4;
  EXPECT_EQ(s.StartingAtol(), 3e-4);
  s.auto_scale_atol = false;
  s.atol.reset();
  EXPECT_EQ(s.StartingAtol(), 1e-6);
}

TEST(AutoScale, TheFileSaysAutoOrOnOrOff) {
  const System automatic =
      Compile(xml::ReadModelString(LargeSine("ode45", R"(atol="auto")"), "a.xml"));
  EXPECT_FALSE(automatic.settings().atol.has_value());
  EXPECT_TRUE(automatic.settings().auto_scale_atol);
  const System plain = Compile(xml::ReadModelString(LargeSine("ode45", R"(atol="1e-6")"), "a.xml"));
  EXPECT_FALSE(plain.settings().auto_scale_atol);
  auto error_of = [](const std::string& tolerance) {
    try {
      Compile(xml::ReadModelString(LargeSine("ode45", tolerance), "a.xml"));
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("compiled");
  };
  EXPECT_THAT(error_of(R"(atol="auto" auto_scale_atol="off")"),
              HasSubstr("a.xml:2: simulation attribute 'auto_scale_atol' cannot be off with "
                        "atol=\"auto\""));
  EXPECT_THAT(error_of(R"(auto_scale_atol="yes")"),
              HasSubstr("a.xml:2: simulation attribute 'auto_scale_atol' must be on or off, got "
                        "'yes'"));
  EXPECT_THAT(error_of(R"(atol="automatic")"), HasSubstr("a.xml:2: simulation attribute 'atol'"));
}

}  // namespace
}  // namespace twinblocks::graph
