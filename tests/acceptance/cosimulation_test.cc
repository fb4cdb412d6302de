// Co-simulation: the flagship twin's plant (models/robot6dof/cosim_plant.xml: the reference
// arm with link-side friction, reduction gears and one PMSM per joint under field-oriented
// current control) advanced in 1 ms steps by a program, with a controller outside the model
// computing the motor torque commands from the signals it reads, matches the closed-loop model
// (models/robot6dof/cosim_closed_loop.xml: the same plant with the same law inside, sampled
// every 1 ms) to 1e-9 rad in every joint position and 1e-9 rad/s in every joint rate, at every
// millisecond of the 0.5 s horizon.
//
// The controller here is what a user would write: PD on the joints plus gravity compensation
// from the model's own g(q) (the GravityTorque signal the plant model publishes), divided by
// the gear ratios, with the same numbers as the closed-loop model. Both runs use the models'
// fixed-step ode4 (50 us), which lands on every millisecond, and again ode45 (rtol 1e-8): the
// closed loop restarts the solver at its sample hits, the co-simulation at each new input, so
// both integrate the same pieces. Measured: both agree bitwise (difference 0) with either solver,
// since the law is computed in the same order of operations in the test as in the blocks.
// The Python binding's E6 test is a port of this one.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

constexpr int kJoints = 6;
constexpr double kTs = 1e-3;         // s, the controller's period
constexpr double kTolerance = 1e-9;  // rad and rad/s

// The controller, as in cosim_closed_loop.xml.
constexpr std::array<double, kJoints> kDesired = {0.2, -0.3, 0.25, 0.1, -0.2, 0.3};  // rad
constexpr std::array<double, kJoints> kKp = {2000, 2000, 800, 400, 400, 200};        // N m/rad
constexpr std::array<double, kJoints> kKd = {200, 200, 80, 20, 20, 10};              // N m s/rad
constexpr std::array<double, kJoints> kGearRatio = {80, 50, 50, 30, 30, 15};         // -

/// tau_ref_i = (Kp_i (q_d,i - q_i) - Kd_i qd_i + g_i) / n_i, motor side (N m).
std::array<double, kJoints> Control(std::span<const double> q, std::span<const double> qd,
                                    std::span<const double> g) {
  std::array<double, kJoints> tau_ref;
  for (int i = 0; i < kJoints; ++i) {
    const double joint_torque = kKp[i] * (kDesired[i] - q[i]) - kKd[i] * qd[i] + g[i];
    tau_ref[i] = (1.0 / kGearRatio[i]) * joint_torque;
  }
  return tau_ref;
}

/// The largest difference between two runs' column `name` (rows at the same times).
double MaxDifference(const graph::Recording& a, const graph::Recording& b,
                     const std::string& name) {
  EXPECT_EQ(a.num_rows(), b.num_rows());
  double worst = 0.0;
  for (int j = 0; j < kJoints; ++j) {
    const std::string column = name + "[" + std::to_string(j) + "]";
    const std::vector<double> x = Column(a, column), y = Column(b, column);
    for (size_t r = 0; r < std::min(x.size(), y.size()); ++r) {
      worst = std::max(worst, std::abs(x[r] - y[r]));
    }
  }
  return worst;
}

/// Steps the plant model with the controller above; returns its recording.
graph::Recording CoSimulate(const graph::System& plant,
                            const graph::SimulationSettingsValues& settings, bool control) {
  graph::Simulator sim(plant, settings);
  sim.Initialize();
  // Handles once, before the loop: nothing is looked up by name while stepping.
  const graph::InputHandle tau_ref = sim.FindInput("tau_ref");
  const graph::SignalHandle q = sim.FindSignal("plant.q");
  const graph::SignalHandle qd = sim.FindSignal("plant.qd");
  const graph::SignalHandle g = sim.FindSignal("gravity.tau");
  const double t_end = plant.settings().t_end;
  for (long k = 1;; ++k) {
    if (control) sim.SetInput(tau_ref, Control(sim.Read(q), sim.Read(qd), sim.Read(g)));
    // t_k = k Ts, computed as the closed loop's sample hits are.
    const double t_next = std::min(t_end, static_cast<double>(k) * kTs);
    const graph::SimulationOutcome outcome = sim.AdvanceTo(t_next);
    EXPECT_TRUE(outcome.ok) << outcome.error;
    if (!outcome.ok || t_next >= t_end) break;
  }
  EXPECT_EQ(sim.time(), t_end);
  return sim.recording();
}

/// The models' own solver (ode4), and ode45 at rtol 1e-8 (variable steps: both runs restart at
/// every millisecond and choose the same steps from there).
class CoSimulation : public ::testing::TestWithParam<std::string> {};

TEST_P(CoSimulation, SteppedPlantWithOutsideControllerMatchesClosedLoop) {
  const graph::System plant =
      graph::Compile(xml::ReadModelFile(SourcePath("models/robot6dof/cosim_plant.xml")));
  const graph::System closed_loop =
      graph::Compile(xml::ReadModelFile(SourcePath("models/robot6dof/cosim_closed_loop.xml")));
  ASSERT_EQ(plant.settings().t_end, closed_loop.settings().t_end);
  graph::SimulationSettingsValues settings = closed_loop.settings();
  settings.solver = GetParam();
  settings.rtol = 1e-8;
  settings.atol = 1e-10;

  graph::Simulator reference(closed_loop, settings);
  const graph::SimulationOutcome outcome = reference.Run();
  ASSERT_TRUE(outcome.ok) << outcome.error;
  const graph::Recording cosim = CoSimulate(plant, settings, /*control=*/true);

  const double q_error = MaxDifference(cosim, reference.recording(), "q");
  const double qd_error = MaxDifference(cosim, reference.recording(), "qd");
  RecordProperty("max_q_difference", Figure(q_error));
  RecordProperty("max_qd_difference", Figure(qd_error));
  EXPECT_LE(q_error, kTolerance);
  EXPECT_LE(qd_error, kTolerance);
  // The commands: a row at t_k holds the command of [t_(k-1), t_k) in the co-simulation
  // (set after the row is written) and of [t_k, t_(k+1)) in the closed loop; compare the
  // co-simulation's row k+1 with the closed loop's row k.
  const graph::Recording& closed = reference.recording();
  double shifted = 0.0;
  for (int j = 0; j < kJoints; ++j) {
    const std::string column = "tau_ref[" + std::to_string(j) + "]";
    const std::vector<double> a = Column(cosim, column), b = Column(closed, column);
    for (size_t r = 0; r + 1 < a.size(); ++r)
      shifted = std::max(shifted, std::abs(a[r + 1] - b[r]));
  }
  RecordProperty("max_command_difference", Figure(shifted));
  EXPECT_LE(shifted, 1e-9);

  // The arm moved toward the set point: the comparison is of a real motion.
  const std::vector<double> q2 = Column(closed, "q[1]");
  EXPECT_LT(q2.back(), -0.25);
}

// The check can fail: without the controller the plant goes elsewhere.
INSTANTIATE_TEST_SUITE_P(Solvers, CoSimulation, ::testing::Values("ode4", "ode45"));

TEST(CoSimulationCheck, WithoutTheControllerThePlantDiffers) {
  const graph::System plant =
      graph::Compile(xml::ReadModelFile(SourcePath("models/robot6dof/cosim_plant.xml")));
  const graph::System closed_loop =
      graph::Compile(xml::ReadModelFile(SourcePath("models/robot6dof/cosim_closed_loop.xml")));
  graph::Simulator reference(closed_loop, closed_loop.settings());
  ASSERT_TRUE(reference.Run().ok);
  EXPECT_GT(MaxDifference(CoSimulate(plant, plant.settings(), /*control=*/false),
                          reference.recording(), "q"),
            0.1);
}

}  // namespace
}  // namespace twinblocks::testing
