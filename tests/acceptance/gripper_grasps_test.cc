// The reference grasps of docs/grasp.md (Pozzi et al. 2022, "Modeling and Simulation of
// Robotic Grasping in Simulink Through Simscape Multibody", section 3) with the four-fingered
// gripper of models/gripper4.
//   D4 G1 (precision grasp, welded sphere): contact signals are 0 or 1 only; each of the four
//      distal phalanges sets at a reported time and stays in contact to the end.
//   D4 G2 (power grasp, free sphere, the paper's Fig. 11): the sphere moves towards +x, first
//      down then back up, stays at y = 0 within 1e-6 m and turns about y only.
//   H5 (issue 41) G1, G2: the GraspAnalysis block finds the closed grasp force closure, epsilon >
//   0. D5 G3 (density sweep, Fig. 12): the final downward displacement of the sphere decreases
//      strictly with its density over 160, 700, 2300, 7860, 19250 kg/m^3.
// Measured figures go to the test's properties (RecordProperty) and a printed table.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

// The paper's names of the contact signals, in the order the models log and summarize them.
std::vector<std::string> ContactNames() {
  std::vector<std::string> names;
  for (int k = 1; k <= 4; ++k) {
    for (int j = 1; j <= 3; ++j) names.push_back("F" + std::to_string(k) + "P" + std::to_string(j));
  }
  names.push_back("palm");
  return names;
}

// When a 0/1 signal first and last went from 0 to 1 (-1: never).
struct SetTimes {
  double first = -1.0;
  double last = -1.0;
  int rises = 0;
};

SetTimes FindSetTimes(const std::vector<double>& t, const std::vector<double>& c) {
  SetTimes s;
  for (size_t i = 0; i < c.size(); ++i) {
    const bool was = i > 0 && c[i - 1] == 1.0;
    if (c[i] == 1.0 && !was) {
      if (s.first < 0) s.first = t[i];
      s.last = t[i];
      ++s.rises;
    }
  }
  return s;
}

std::string Seconds(double t) { return t < 0 ? std::string("never") : Figure(t); }

RunOutput TimedRun(const std::string& file, double* seconds) {
  const auto start = std::chrono::steady_clock::now();
  RunOutput out = RunModelFile(file);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// Checks the contact signals of a run and prints when each set; returns their set times.
std::vector<SetTimes> CheckContactSignals(const RunOutput& out, const std::string& experiment) {
  const std::vector<double> t = Times(out.recording);
  std::vector<SetTimes> times;
  std::printf(
      "%s contact signals (Pozzi et al. 2022 Fig. 7/9):\n  signal  first set (s)  last set (s)  "
      "rises  at t_end\n",
      experiment.c_str());
  int i = 0;
  for (const std::string& name : ContactNames()) {
    const std::vector<double> c = Column(out.recording, name);
    int not_binary = 0;
    for (double v : c) not_binary += v != 0.0 && v != 1.0;
    EXPECT_EQ(not_binary, 0) << name << " takes values other than 0 and 1";
    const SetTimes s = FindSetTimes(t, c);
    times.push_back(s);
    std::printf("  %-6s  %-13s  %-12s  %5d  %g\n", name.c_str(), Seconds(s.first).c_str(),
                Seconds(s.last).c_str(), s.rises, c.empty() ? -1.0 : c.back());
    // The model's own ContactTimes block (its summaries) reports the same times.
    const std::vector<double> first =
        Column(out.recording, "set_times.first[" + std::to_string(i) + "]");
    const std::vector<double> last =
        Column(out.recording, "set_times.last[" + std::to_string(i) + "]");
    if (!first.empty()) {
      EXPECT_NEAR(first.back(), s.first, 1e-9) << name;
    }
    if (!last.empty()) {
      EXPECT_NEAR(last.back(), s.last, 1e-9) << name;
    }
    ++i;
  }
  return times;
}

// H5 of issue 41: the GraspAnalysis block of the model (evaluated every Ts) says the grasp
// is force closure, with epsilon > 0, at every sample from one sample after the last contact
// signal first sets (the grasp closed) to the end of the run. Prints the grasp's measures.
void CheckGraspClosedToTheEnd(const RunOutput& out, const std::vector<SetTimes>& times, double Ts,
                              const std::string& experiment) {
  double closed = 0.0;
  for (const SetTimes& s : times) closed = std::max(closed, s.first);
  closed += Ts;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> closure = Column(out.recording, "grasp.closure");
  const std::vector<double> epsilon = Column(out.recording, "grasp.epsilon");
  const std::vector<double> active = Column(out.recording, "grasp.n_active");
  const std::vector<double> internal = Column(out.recording, "grasp.internal_force");
  const std::vector<double> slip = Column(out.recording, "grasp.slip");
  ASSERT_EQ(closure.size(), t.size());
  double epsilon_min = 1e300;
  int checked = 0;
  for (size_t r = 0; r < t.size(); ++r) {
    if (t[r] < closed) continue;
    ASSERT_EQ(closure[r], 1.0) << experiment << ": not force closure at t = " << t[r];
    ASSERT_GT(epsilon[r], 0.0) << experiment << ": epsilon 0 at t = " << t[r];
    epsilon_min = std::min(epsilon_min, epsilon[r]);
    ++checked;
  }
  EXPECT_GT(checked, 100) << "the grasp closes too late to check";
  std::printf(
      "%s grasp (GraspAnalysis): closed from %.4f s; at t_end %g active contacts, epsilon %.4g "
      "(smallest since closed %.4g), internal force %.4g N, slip margin %.3g\n",
      experiment.c_str(), closed, active.back(), epsilon.back(), epsilon_min, internal.back(),
      slip.back());
  ::testing::Test::RecordProperty(experiment + "_grasp_closed_from_s", Figure(closed));
  ::testing::Test::RecordProperty(experiment + "_epsilon_final", Figure(epsilon.back()));
}

TEST(GripperGrasp, G1PrecisionGraspEndsWithEveryFingertipInStableContact) {
  double wall = 0.0;
  const RunOutput out = TimedRun("models/gripper4/g1_precision.xml", &wall);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  RecordProperty("wall_s", Figure(wall));
  const std::vector<double> t = Times(out.recording);
  ASSERT_FALSE(t.empty());
  const double t_end = t.back();
  EXPECT_NEAR(t_end, 0.5, 1e-12);

  const std::vector<SetTimes> times = CheckContactSignals(out, "G1");
  const std::vector<std::string> names = ContactNames();
  for (int k = 0; k < 4; ++k) {
    const int i = 3 * k + 2;  // the distal phalanx F{k}P3
    const std::vector<double> c = Column(out.recording, names[i]);
    ASSERT_GE(times[i].last, 0.0) << names[i] << " never set";
    RecordProperty(names[i] + "_set_s", Figure(times[i].last));
    // From its last rising edge on, the contact holds to the end of the run.
    for (size_t r = 0; r < t.size(); ++r) {
      if (t[r] >= times[i].last) {
        ASSERT_EQ(c[r], 1.0) << names[i] << " drops at t = " << t[r];
      }
    }
    // Stable: held for at least the last 0.1 s, not a touch just before the end.
    EXPECT_LT(times[i].last, t_end - 0.1) << names[i];
  }
  CheckGraspClosedToTheEnd(out, times, 1e-2, "G1");
}

// Item 5 of the issue, "steps are not forced tiny while bodies rest in contact": once every
// joint holds, the detectors' 1e-4 s samples change nothing the solver reads, and with
// sample_hits = step_over it steps over them. The grasp is the same: every contact sets and
// drops at the same samples as when the solver lands on each.
TEST(GripperGrasp, G1StepsOverTheDetectorSamplesOnceTheFingersHold) {
  auto best = [](graph::SimulationSettingsValues::SampleHits hits) {
    return [hits](graph::SimulationSettingsValues* s) {
      s->solver = "ode23s";
      s->rtol = 1e-3;
      s->atol = 1e-5;
      s->jacobian_steps = 2;
      s->output_interval.reset();
      s->sample_hits = hits;
    };
  };
  const RunOutput land = RunModelFile("models/gripper4/g1_precision.xml",
                                      best(graph::SimulationSettingsValues::SampleHits::kLand));
  const RunOutput over = RunModelFile("models/gripper4/g1_precision.xml",
                                      best(graph::SimulationSettingsValues::SampleHits::kStepOver));
  ASSERT_TRUE(land.outcome.ok) << land.outcome.error;
  ASSERT_TRUE(over.outcome.ok) << over.outcome.error;
  const std::vector<double> t_land = Times(land.recording), t_over = Times(over.recording);
  int set = 0;
  for (const std::string& name : ContactNames()) {
    const SetTimes a = FindSetTimes(t_land, Column(land.recording, name));
    const SetTimes b = FindSetTimes(t_over, Column(over.recording, name));
    EXPECT_EQ(a.first, b.first) << name;
    EXPECT_EQ(a.last, b.last) << name;
    EXPECT_EQ(a.rises, b.rises) << name;
    set += a.first >= 0.0;
  }
  EXPECT_GE(set, 4);  // the fingertips at least: the comparison could fail
  RecordProperty("steps_land", static_cast<int>(land.stats.solver.steps));
  RecordProperty("steps_step_over", static_cast<int>(over.stats.solver.steps));
  std::printf(
      "G1, ode23s rtol 1e-3 atol 1e-5 jacobian_steps 2: %ld steps landing on every "
      "sample, %ld stepping over\n",
      land.stats.solver.steps, over.stats.solver.steps);
  EXPECT_GE(land.stats.solver.steps, 5000);
  EXPECT_LT(over.stats.solver.steps, land.stats.solver.steps / 3);
}

// G2 as gripper4.md restates it (the sphere 1 mm above the palm at (-0.010, 0, 0.031) m, the
// fingers closing at 1.25 rad/s): the first contacts detected are the proximal phalanges of
// fingers 2 and 4, together; the sphere is dragged towards +x, stays in the plane y = 0
// (|y| <= 1e-6 m) and turns about y only (about x and z under 1e-4 rad); the grasp ends with
// the palm in contact.
TEST(GripperGrasp, G2ProximalPhalangesTouchFirstAndDragTheSphereTowardsPlusX) {
  double wall = 0.0;
  const RunOutput out = TimedRun("models/gripper4/g2_power.xml", &wall);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  RecordProperty("wall_s", Figure(wall));
  const std::vector<SetTimes> times = CheckContactSignals(out, "G2");
  const std::vector<std::string> names = ContactNames();

  // The first contacts detected: F2P1 and F4P1 (indices 3 and 9), at the same sample, and no
  // other contact as early.
  const int f2p1 = 3, f4p1 = 9;
  ASSERT_GE(times[f2p1].first, 0.0) << "F2P1 never set";
  EXPECT_EQ(times[f2p1].first, times[f4p1].first);
  for (size_t i = 0; i < times.size(); ++i) {
    if (static_cast<int>(i) == f2p1 || static_cast<int>(i) == f4p1 || times[i].first < 0.0) {
      continue;
    }
    EXPECT_GT(times[i].first, times[f2p1].first) << names[i] << " sets as early as F2P1";
  }
  RecordProperty("first_contact_s", Figure(times[f2p1].first));

  const std::vector<double> x = Column(out.recording, "object_position[0]");
  const std::vector<double> y = Column(out.recording, "object_position[1]");
  const std::vector<double> z = Column(out.recording, "object_position[2]");
  const std::vector<double> phi = Column(out.recording, "object_euler_zyx[0]");    // about z
  const std::vector<double> theta = Column(out.recording, "object_euler_zyx[1]");  // about y
  const std::vector<double> psi = Column(out.recording, "object_euler_zyx[2]");    // about x
  ASSERT_FALSE(z.empty());
  const double x0 = x.front(), z0 = z.front();
  EXPECT_NEAR(x0, -0.010, 1e-12);
  EXPECT_NEAR(z0, 0.031, 1e-12);

  // Dragged towards +x.
  EXPECT_GT(x.back(), x0 + 1e-3) << "x moved by " << x.back() - x0;
  // In the plane y = 0, turning about y only.
  double y_max = 0, phi_max = 0, psi_max = 0, theta_max = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    y_max = std::max(y_max, std::abs(y[i]));
    phi_max = std::max(phi_max, std::abs(phi[i]));
    psi_max = std::max(psi_max, std::abs(psi[i]));
    theta_max = std::max(theta_max, std::abs(theta[i]));
  }
  EXPECT_LE(y_max, 1e-6);
  EXPECT_LE(phi_max, 1e-4);
  EXPECT_LE(psi_max, 1e-4);
  EXPECT_GT(theta_max, 1e-3) << "the sphere must turn about y";
  // The palm holds it at the end.
  const std::vector<double> palm = Column(out.recording, "palm");
  ASSERT_FALSE(palm.empty());
  EXPECT_EQ(palm.back(), 1.0) << "the palm is not in contact at the end";

  std::printf(
      "G2 sphere (Pozzi et al. 2022 Fig. 11): first contacts F2P1, F4P1 at %.4f s; x %.6f -> "
      "%.6f m; z %.6f -> %.6f m\n"
      "  max |y| %.3g m, max |phi| (z) %.3g rad, max |theta| (y) %.4g rad, max |psi| (x) %.3g "
      "rad\n",
      times[f2p1].first, x0, x.back(), z0, z.back(), y_max, phi_max, theta_max, psi_max);
  RecordProperty("x_final_m", Figure(x.back()));
  RecordProperty("z_final_m", Figure(z.back()));
  RecordProperty("y_max_abs_m", Figure(y_max));
  RecordProperty("phi_max_abs_rad", Figure(phi_max));
  RecordProperty("psi_max_abs_rad", Figure(psi_max));
  RecordProperty("theta_max_abs_rad", Figure(theta_max));
  CheckGraspClosedToTheEnd(out, times, 1e-2, "G2");
}

// G3 as gripper4.md restates it, over the five densities of Pozzi et al. 2022 Fig. 12: the
// denser the sphere, the closer it ends to fingers 2 and 4 (final x non-increasing with
// density) and the less it turns (largest |theta| about y non-increasing, to within 1 %).
TEST(GraspDensity, G3DenserSpheresEndCloserToFingers2And4AndTurnLess) {
  double wall = 0.0;
  const RunOutput out = TimedRun("models/gripper4/g3_density_sweep.xml", &wall);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  RecordProperty("wall_s", Figure(wall));
  const std::vector<std::string> densities = {"160", "700", "2300", "7860", "19250"};
  std::vector<double> x_final, theta_max;
  std::printf(
      "G3 (Pozzi et al. 2022 Fig. 12): density (kg/m^3), final x (m), largest |theta| about y "
      "(rad), final z (m)\n");
  for (const std::string& rho : densities) {
    const std::vector<double> x = Column(out.recording, "position_" + rho + "[0]");
    const std::vector<double> z = Column(out.recording, "position_" + rho + "[2]");
    const std::vector<double> theta = Column(out.recording, "euler_zyx_" + rho + "[1]");
    ASSERT_FALSE(x.empty());
    x_final.push_back(x.back());
    double largest = 0.0;
    for (double v : theta) largest = std::max(largest, std::abs(v));
    theta_max.push_back(largest);
    std::printf("  %6s  %.6f  %.6f  %.6f\n", rho.c_str(), x.back(), largest, z.back());
    RecordProperty("x_final_" + rho + "_m", Figure(x.back()));
    RecordProperty("theta_max_" + rho + "_rad", Figure(largest));
  }
  for (size_t i = 0; i + 1 < densities.size(); ++i) {
    EXPECT_LE(x_final[i + 1], x_final[i])
        << "final x, rho " << densities[i] << " vs " << densities[i + 1];
    EXPECT_LE(theta_max[i + 1], theta_max[i] * 1.01)
        << "largest |theta|, rho " << densities[i] << " vs " << densities[i + 1];
  }
}

}  // namespace
}  // namespace twinblocks::testing
