// L4: conditional subsystems. An enabled integrator holds its state while disabled and starts
// again from its initial state when told to; a triggered counter counts the rising edges of a
// sine exactly; each with a fixed-step and a variable-step solver.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

using testing::Column;
using testing::RunModelText;
using testing::Times;

struct Solver {
  const char* name;
  const char* settings;  // the rest of <simulation>
};

const Solver kSolvers[] = {{"ode4", R"(step="0.01")"}, {"ode45", R"(rtol="1e-8")"}};

// The value of a logged column at the last row at or before t.
double At(const std::vector<double>& times, const std::vector<double>& values, double t) {
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  EXPECT_NE(it, times.begin());
  return values[static_cast<size_t>(it - times.begin()) - 1];
}

// A Pulse enables the subsystem on [0, 1), [2, 3), ... and disables it on [1, 2), [3, 4), ...;
// inside, an Integrator integrates 1.
std::string EnabledIntegrator(const Solver& s, const std::string& states,
                              const std::string& outport) {
  return std::string(R"(<model name="enabled_integrator">
  <simulation t_end="4.5" solver=")") +
         s.name + "\" " + s.settings + R"(/>
  <block type="Pulse" name="enable" amplitude="1" period="2" duty="0.5"/>
  <block type="Constant" name="one" value="1"/>
  <subsystem name="acc">
    <enable name="en" states=")" +
         states + R"("/>
    <inport name="u"/>
    <outport name="y" )" +
         outport + R"(/>
    <block type="Integrator" name="int"/>
    <connect from=".u" to="int.u"/>
    <connect from="int.y" to=".y"/>
  </subsystem>
  <connect from="enable.y" to="acc.en"/>
  <connect from="one.y" to="acc.u"/>
  <log signal="acc.y" as="y"/>
  <log signal="acc/int.y" as="state"/>
</model>
)";
}

// The time the Pulse has enabled the subsystem by t: it is on over [0, 1), [2, 3), [4, 5).
double TimeEnabled(double t) {
  return std::min(t, 1.0) + std::clamp(t - 2.0, 0.0, 1.0) + std::clamp(t - 4.0, 0.0, 1.0);
}

bool AtASwitch(double t) { return std::abs(t - std::round(t)) < 1e-9; }

TEST(ConditionalSubsystems, L4EnabledIntegratorHoldsItsStateWhileDisabled) {
  for (const Solver& s : kSolvers) {
    SCOPED_TRACE(s.name);
    const testing::RunOutput out = RunModelText(EnabledIntegrator(s, "held", ""));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> y = Column(out.recording, "y");
    // y = the integral of 1 while enabled, held while disabled, at every row; exact up to
    // rounding (1e-9): the solvers land on the Pulse's edges and integrate a constant exactly.
    // At a switch itself the row holds the value at the switch.
    double worst = 0.0;
    int disabled_rows = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      worst = std::max(worst, std::abs(y[i] - TimeEnabled(t[i])));
      if (std::fmod(t[i], 2.0) > 1.0) ++disabled_rows;
    }
    EXPECT_LT(worst, 1e-9);
    EXPECT_GT(disabled_rows, 0);
    EXPECT_NEAR(y.back(), 2.5, 1e-9);
    RecordProperty(std::string("max_error_held_") + s.name, testing::Figure(worst));
  }
}

TEST(ConditionalSubsystems, L4EnabledIntegratorResetsWhenEnabledAgain) {
  for (const Solver& s : kSolvers) {
    SCOPED_TRACE(s.name);
    const testing::RunOutput out =
        RunModelText(EnabledIntegrator(s, "reset", R"(disabled="reset" initial="-1")"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> y = Column(out.recording, "y");
    const std::vector<double> state = Column(out.recording, "state");
    double worst = 0.0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (AtASwitch(t[i])) continue;
      const double since_enabled = t[i] - 2.0 * std::floor(t[i] / 2.0);
      const bool enabled = since_enabled < 1.0;
      // Enabled: the integral since this enabling (the state starts from x0 = 0 each time).
      // Disabled: the outport resets to its initial output; the state inside holds at 1.
      const double expected_y = enabled ? since_enabled : -1.0;
      const double expected_state = enabled ? since_enabled : 1.0;
      worst = std::max({worst, std::abs(y[i] - expected_y), std::abs(state[i] - expected_state)});
    }
    EXPECT_LT(worst, 1e-9);
    EXPECT_NEAR(y.back(), 0.5, 1e-9);
    RecordProperty(std::string("max_error_reset_") + s.name, testing::Figure(worst));
  }
}

// The trigger: sin(2 pi (t - 0.3)), rising through 0 at t = 0.3, 1.3, ..., 5.3. Inside, a
// counter: y = 1 + y[previous trigger].
std::string TriggeredCounter(const Solver& s, const std::string& edge) {
  return std::string(R"(<model name="triggered_counter">
  <simulation t_end="5.6" solver=")") +
         s.name + "\" " + s.settings + R"(/>
  <block type="Sine" name="wave" frequency="2*pi" phase="-0.6*pi"/>
  <subsystem name="counter">
    <trigger name="tick" edge=")" +
         edge + R"("/>
    <outport name="count"/>
    <block type="Constant" name="one" value="1"/>
    <block type="Sum" name="add" signs="++"/>
    <block type="UnitDelay" name="last"/>
    <connect from="one.y" to="add.u1"/>
    <connect from="last.y" to="add.u2"/>
    <connect from="add.y" to="last.u"/>
    <connect from="add.y" to=".count"/>
  </subsystem>
  <connect from="wave.y" to="counter.tick"/>
  <log signal="counter.count" as="count"/>
  <log signal="wave.y" as="wave"/>
</model>
)";
}

TEST(ConditionalSubsystems, L4TriggeredCounterCountsRisingEdgesExactly) {
  for (const Solver& s : kSolvers) {
    SCOPED_TRACE(s.name);
    const testing::RunOutput out = RunModelText(TriggeredCounter(s, "rising"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> count = Column(out.recording, "count");
    // Six rising edges, each counted once, the count exact (a whole number).
    EXPECT_EQ(count.back(), 6.0);
    for (int k = 0; k < 6; ++k) {
      const double edge = 0.3 + k;
      EXPECT_EQ(At(t, count, edge - 0.02), k) << "before edge " << k;
      EXPECT_EQ(At(t, count, edge + 0.02), k + 1) << "after edge " << k;
    }
    // The count steps where the sine crosses 0 upward: at the located crossing.
    for (size_t i = 1; i < t.size(); ++i) {
      if (count[i] != count[i - 1]) {
        const double nearest = std::round(t[i] - 0.3) + 0.3;
        EXPECT_NEAR(t[i], nearest, std::string(s.name) == "ode45" ? 1e-9 : 0.01)
            << "count " << count[i];
      }
    }
  }
}

TEST(ConditionalSubsystems, TriggeredCounterCountsFallingAndEitherEdges) {
  const Solver& s = kSolvers[1];
  // Falling edges at 0.8, 1.8, ..., 4.8, 5.8 (the last after the end): five.
  EXPECT_EQ(Column(RunModelText(TriggeredCounter(s, "falling")).recording, "count").back(), 5.0);
  EXPECT_EQ(Column(RunModelText(TriggeredCounter(s, "either")).recording, "count").back(), 11.0);
}

// Bad conditional subsystems: one line naming the file and line, exit status 2.
struct BadConditional {
  const char* name;
  const char* inside;  // the subsystem's body; line 4 of the file is its first line
  int line;
  const char* says;
};

class ConditionalSubsystemsBadInput : public ::testing::TestWithParam<BadConditional> {};

TEST_P(ConditionalSubsystemsBadInput, OneLineWithFileLineAndStatus2) {
  const BadConditional& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_conditional_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  testing::WriteText(dir / file, std::string(R"(<model name="bad">
  <block type="Sine" name="wave"/>
  <subsystem name="sub">
)") + c.inside + R"(
  </subsystem>
  <connect from="wave.y" to="sub.c"/>
</model>
)");
  testing::ExpectOneLineBadInput((dir / file).string(), file, c.line, {c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, ConditionalSubsystemsBadInput,
    ::testing::Values(
        BadConditional{"unknown_states", R"(    <enable name="c" states="sometimes"/>)", 4,
                       "attribute 'states' is 'sometimes'; expected one of: held, reset"},
        BadConditional{"unknown_edge", R"(    <trigger name="c" edge="up"/>)", 4,
                       "attribute 'edge' is 'up'; expected one of: rising, falling, either"},
        BadConditional{"two_enables", R"(    <enable name="c"/>
    <enable name="d"/>)",
                       5, "a second <enable> (the first is 'c', line 4)"},
        BadConditional{"continuous_state_in_triggered", R"(    <trigger name="c"/>
    <block type="Integrator" name="int"/>
    <block type="Constant" name="one" value="1"/>
    <connect from="one.y" to="int.u"/>)",
                       5, "a block with continuous states cannot be in a triggered subsystem"},
        BadConditional{"own_rate_in_triggered", R"(    <trigger name="c"/>
    <block type="UnitDelay" name="d" Ts="0.1"/>
    <block type="Constant" name="one" value="1"/>
    <connect from="one.y" to="d.u"/>)",
                       5, "leave its sample time inherited (Ts=-1), not discrete Ts=0.1"},
        BadConditional{"reset_output_of_triggered", R"(    <trigger name="c"/>
    <outport name="y" disabled="reset"/>
    <connect from=".c" to=".y"/>)",
                       5, "cannot reset: a triggered subsystem's outputs hold between its"},
        BadConditional{"disabled_output_of_plain_subsystem", R"(    <inport name="c"/>
    <outport name="y" disabled="held"/>
    <connect from=".c" to=".y"/>)",
                       5, "but the subsystem has no <enable> or <trigger> port"},
        BadConditional{"physical_block_in_enabled", R"(    <enable name="c"/>
    <block type="Inertia" name="j" J="1"/>
    <block type="RotationalReference" name="ground"/>
    <connect from="j.I" to="ground.R"/>)",
                       5, "a physical block cannot be in an enabled or triggered subsystem"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks
