// Outputs that only logs read (Context::demanded, kReadForRows) are computed for the rows
// alone: a major step that records no row leaves them, and the rows get them at their own
// times. A pendulum's joint acceleration, a stage-1 output of its mechanism, logged every
// 0.1 s while the solver takes smaller steps: every row, the stop's row between the output
// times included, holds the acceleration of that row's angle.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

// A 1 kg bob (a sphere of 1 cm: I = 4e-5 kg m^2 about its centre) 1 m below a revolute joint
// about y, released at 0.5 rad; stopped at 0.35 s by a Step, between the rows.
std::string Pendulum(const std::string& simulation) {
  return R"(<model name="pendulum" format="1">
  )" + simulation +
         R"(
  <block type="World" name="world"/>
  <block type="RevoluteJoint" name="pivot" axis="[0, 1, 0]" q0="0.5"/>
  <block type="RigidTransform" name="arm" translation="[0, 0, -1]"/>
  <block type="Solid" name="bob" shape="sphere" radius="0.01" mass="1"/>
  <block type="Step" name="late" time="0.35"/>
  <block type="StopSimulation" name="halt"/>
  <connect from="world.W" to="pivot.B"/>
  <connect from="pivot.F" to="arm.B"/>
  <connect from="arm.F" to="bob.R"/>
  <connect from="late.y" to="halt.u"/>
  <log signal="pivot.q" as="q"/>
  <log signal="pivot.qdd" as="qdd"/>
</model>)";
}

TEST(LogOnlyOutputs, RowsBetweenStepsAndTheStopsRowHoldTheirOwnAcceleration) {
  for (const char* solver : {"ode45", "ode23s"}) {
    SCOPED_TRACE(solver);
    const testing::RunOutput out = testing::RunModelText(Pendulum(
        std::string(R"(<simulation solver=")") + solver +
        R"(" t_end="2" rtol="1e-8" atol="1e-10" max_step="0.01" output_interval="0.1"/>)"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = testing::Times(out.recording);
    const std::vector<double> q = testing::Column(out.recording, "q");
    const std::vector<double> qdd = testing::Column(out.recording, "qdd");
    ASSERT_EQ(t.size(), 5u);  // 0, 0.1, 0.2, 0.3 and the stop's 0.35
    EXPECT_EQ(t.back(), 0.35);
    // x = sin(q), z = -cos(q) about +y: gravity turns the bob back toward q = 0.
    const double inertia = 1.0 + 0.4 * 1e-4;  // m l^2 + (2/5) m r^2
    for (size_t i = 0; i < t.size(); ++i) {
      SCOPED_TRACE(t[i]);
      EXPECT_NEAR(qdd[i], -9.81 * std::sin(q[i]) / inertia, 1e-9);
    }
  }
}

// What a run logs does not change its trajectory. The planar adaptive finger closing on a
// post under ode23s, with every output logged and with the joint angles only: the logs of
// the tendon's force and the predicted equilibrium make each 10 ms row compute the
// mechanism's accelerations there, between steps; a Jacobian formed after such a row still
// sees the step's own evaluation (Simulator::Problem::CalcJacobian evaluates again), and the
// two runs agree to the last bit.
TEST(LogOnlyOutputs, LoggingMoreDoesNotChangeTheRun) {
  std::ifstream in(std::string(TWINBLOCKS_SOURCE_DIR) + "/tests/data/xml/af_finger_cylinder.xml");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  std::string fewer = all;
  for (const char* log : {"tendon.f", "contact1.fn", "contact2.fn", "contact1.distance",
                          "predicted.q", "predicted.f"}) {
    const std::string line = std::string("<log signal=\"") + log + "\"/>";
    const size_t at = fewer.find(line);
    ASSERT_NE(at, std::string::npos) << line;
    fewer.erase(at, line.size());
  }
  const testing::SettingsTweak loose = [](graph::SimulationSettingsValues* s) {
    s->solver = "ode23s";
    s->rtol = 1e-4;
    s->atol = 1e-6;
  };
  const testing::RunOutput a = testing::RunModelText(all, loose);
  const testing::RunOutput b = testing::RunModelText(fewer, loose);
  ASSERT_TRUE(a.outcome.ok) << a.outcome.error;
  ASSERT_TRUE(b.outcome.ok) << b.outcome.error;
  EXPECT_EQ(a.stats.solver.steps, b.stats.solver.steps);
  for (const char* q : {"j1.q", "j2.q"}) {
    EXPECT_EQ(testing::Column(a.recording, q), testing::Column(b.recording, q)) << q;
  }
}

}  // namespace
}  // namespace twinblocks
