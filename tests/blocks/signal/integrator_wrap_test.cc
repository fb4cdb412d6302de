// The Integrator's wrapped state (Simulink's "Wrap state"): an angle kept in
// [wrap_lower, wrap_upper), each wrap located and the solver restarted there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;

// x' = rate from x0, wrapped into [lower, upper): x = lower + ((x0 + rate t - lower) mod range).
std::string Wrapped(const std::string& solver, double rate, double x0, const std::string& range) {
  return R"(<model name="wrap" format="1">
    <simulation solver=")" +
         solver + R"(" step="0.3" t_end="3.5" output_interval="0.05"/>
    <block type="Constant" name="rate" value=")" +
         std::to_string(rate) + R"("/>
    <block type="Integrator" name="x" wrap="true" x0=")" +
         std::to_string(x0) + "\" " + range + R"(/>
    <connect from="rate.y" to="x.u"/>
    <log signal="x.y" as="x"/>
  </model>)";
}

struct WrapCase {
  const char* solver;
  bool locates;  ///< false for ode4, which wraps at the ends of its steps
};

class IntegratorWrap : public ::testing::TestWithParam<WrapCase> {};

// Up from 0 at 1/s in [0, 1); down from 2.5 (wrapped to 0.5 at the start) at -1/s, where the
// steps end on the lower bound itself (x = 0 exactly) and x leaves from there. Every row within
// 1e-12 of the closed form, every row in the range but for a rounding error at a bound (a row
// interpolated just before a located wrap).
TEST_P(IntegratorWrap, StaysInItsRangeAndFollowsTheClosedForm) {
  for (const double rate : {1.0, -1.0}) {
    SCOPED_TRACE(rate);
    const double x0 = rate > 0 ? 0.0 : 2.5;
    const System system = Compile(xml::ReadModelString(
        Wrapped(GetParam().solver, rate, x0, R"(wrap_lower="0" wrap_upper="1")"), "w.xml"));
    Simulator sim(system, system.settings());
    const SimulationOutcome outcome = sim.Run();
    ASSERT_TRUE(outcome.ok) << outcome.error;
    const Recording& r = sim.recording();
    ASSERT_GT(r.num_rows(), 70);
    for (int i = 0; i < r.num_rows(); ++i) {
      const double t = r.time(i), x = r.value(i, 0);
      const double unwrapped = x0 + rate * t;
      double expected = unwrapped - std::floor(unwrapped);
      // At a bound either side is right.
      if (std::abs(expected - 1.0) < 1e-9 || std::abs(expected) < 1e-9) {
        expected = x > 0.5 ? 1.0 : 0.0;
      }
      EXPECT_NEAR(x, expected, 1e-12) << "t = " << t;
      EXPECT_GE(x, -1e-12) << "t = " << t;
      EXPECT_LE(x, 1.0 + 1e-12) << "t = " << t;
    }
    // Up at 1, 2, 3 s; down at 0.5, 1.5, 2.5 and on t_end itself, 3.5 s (where x reaches 0).
    const long located = GetParam().locates ? (rate > 0 ? 3 : 4) : 0;
    EXPECT_EQ(sim.stats().solver.zero_crossings, located);
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, IntegratorWrap,
                         ::testing::Values(WrapCase{"ode45", true}, WrapCase{"ode23s", true},
                                           WrapCase{"cvode-bdf", true}, WrapCase{"ida", true},
                                           WrapCase{"ode4", false}));

// The default range is [-pi, pi): an angle at 1 rad/s from 3 rad reads 3 + t - 2 pi past
// pi - 3 s.
TEST(IntegratorWrapDefaults, ARangeOfPlusMinusPi) {
  const System system = Compile(xml::ReadModelString(Wrapped("ode45", 1.0, 3.0, ""), "w.xml"));
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  const Recording& r = sim.recording();
  const int last = r.num_rows() - 1;
  EXPECT_NEAR(r.value(last, 0), 3.0 + 3.5 - 2.0 * M_PI, 1e-12);
  EXPECT_EQ(sim.stats().solver.zero_crossings, 1);
}

void ExpectError(const std::string& integrator, const std::string& what) {
  try {
    Compile(xml::ReadModelString(R"(<model name="m" format="1">
<block type="Constant" name="u" value="1"/>
)" + integrator + R"(
<connect from="u.y" to="x.u"/></model>)",
                                 "m.xml"));
    ADD_FAILURE() << "compiled: " << integrator;
  } catch (const ModelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("m.xml:3: block 'x' (Integrator): ")) << integrator;
    EXPECT_THAT(e.what(), HasSubstr(what)) << integrator;
  }
}

TEST(IntegratorWrapErrors, LimitsAndEmptyRangesAreOneLine) {
  ExpectError(R"(<block type="Integrator" name="x" wrap="true" upper="2"/>)",
              "wrap = true excludes the limits");
  ExpectError(
      R"(<block type="Integrator" name="x" wrap="true" wrap_lower="1" wrap_upper="1"/>)",
      "the wrapped range [wrap_lower, wrap_upper) must be finite and not empty, got [1, 1)");
  ExpectError(R"(<block type="Integrator" name="x" wrap="true" wrap_upper="inf"/>)",
              "must be finite and not empty");
  ExpectError(R"(<block type="Integrator" name="x" wrap="yes"/>)", "wrap");
}

}  // namespace
}  // namespace twinblocks::graph
