// Experiment E1: the reference arm (models/robot6dof/arm.xml, built from frame blocks by the DH
// library) falling under tau_i = 5 sin(pi t) matches MuJoCo's trajectory
// (tests/data/arm_e1_mujoco.csv) to 1e-6 rad over [0, 1] s;
// over the full 4 s the energy balance E(t) - E(0) = integral of tau . qd holds to 1e-8
// relative; and RNEA on the computed trajectory returns the applied torque to 1e-9.
//
// The energy and the inverse dynamics are computed from the logged q, qd, qdd with
// multibody::BuildModifiedDhTree, a tree built directly from the DH table: independent of
// the frame-network compiler that produced the trajectory.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "physics/multibody/algorithms.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/test_trees.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

/// Rows of a CSV with '#' comments and one header line.
std::vector<std::vector<double>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::vector<double>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

TEST(ArmForwardDynamics, MatchesMuJoCoTo1e6RadOverTheFirstSecond) {
  const RunOutput out = RunModelFile("models/robot6dof/e1_forward_dynamics.xml", [](auto* s) {
    s->t_end = 1.0;
    s->rtol = 1e-12;
    s->atol = 1e-14;
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto ref = ReadCsv(std::string(TWINBLOCKS_TEST_DATA) + "/arm_e1_mujoco.csv");
  ASSERT_EQ(ref.size(), 101u);  // 0 to 1 s every 0.01 s
  const std::vector<double> t = Times(out.recording);
  const auto q = Columns(out.recording, "arm.q", 6);
  double worst = 0.0;
  int compared = 0;
  for (const auto& row : ref) {
    if (row[0] > 1.0 + 1e-12) break;
    // Rows are written every 0.01 s: find the same time.
    const auto it = std::lower_bound(t.begin(), t.end(), row[0] - 1e-9);
    ASSERT_NE(it, t.end());
    ASSERT_NEAR(*it, row[0], 1e-9);
    const size_t r = it - t.begin();
    for (int j = 0; j < 6; ++j) worst = std::max(worst, std::abs(q[j][r] - row[1 + j]));
    ++compared;
  }
  EXPECT_EQ(compared, 101);
  EXPECT_LT(worst, 1e-6);
  RecordProperty("max_angle_difference_to_mujoco_rad", Figure(worst));
}

TEST(ArmForwardDynamics, EnergyBalanceAndInverseDynamicsHoldOverFourSeconds) {
  const RunOutput out = RunModelFile("models/robot6dof/e1_forward_dynamics.xml", [](auto* s) {
    s->rtol = 1e-12;
    s->atol = 1e-14;
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const mb::KinematicTree tree = mb::testing::ReferenceArm();
  mb::KinematicTreeData data(tree);
  const std::vector<double> t = Times(out.recording);
  const auto q = Columns(out.recording, "arm.q", 6);
  const auto qd = Columns(out.recording, "arm.qd", 6);
  const auto qdd = Columns(out.recording, "arm.qdd", 6);
  const std::vector<double> work = Column(out.recording, "work");
  Eigen::VectorXd qv(6), vv(6), av(6);
  auto state = [&](size_t r) {
    for (int j = 0; j < 6; ++j) {
      qv[j] = q[j][r];
      vv[j] = qd[j][r];
      av[j] = qdd[j][r];
    }
  };
  auto energy = [&](size_t r) {
    state(r);
    mb::ForwardKinematics(tree, &data, qv, vv);
    return mb::KineticEnergy(tree, data) + mb::PotentialEnergy(tree, data);
  };
  const double e0 = energy(0);
  double scale = 0.0, worst_balance = 0.0, worst_tau = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    const double balance = energy(r) - e0 - work[r];
    scale = std::max(scale, std::abs(work[r]));
    worst_balance = std::max(worst_balance, std::abs(balance));
    state(r);
    const Eigen::VectorXd& tau = mb::Rnea(tree, &data, qv, vv, av);
    const double applied = 5.0 * std::sin(std::numbers::pi * t[r]);
    for (int j = 0; j < 6; ++j) worst_tau = std::max(worst_tau, std::abs(tau[j] - applied));
  }
  ASSERT_GT(scale, 1.0);  // the arm falls: the torques do real work
  EXPECT_LT(worst_balance / scale, 1e-8) << "worst |E - E0 - W| = " << worst_balance << " J";
  EXPECT_LT(worst_tau, 1e-9);
  RecordProperty("energy_balance_relative", Figure(worst_balance / scale));
  RecordProperty("work_scale_J", Figure(scale));
  RecordProperty("rnea_torque_residual_Nm", Figure(worst_tau));
  RecordProperty("steps", std::to_string(out.stats.solver.steps));
}

}  // namespace
}  // namespace twinblocks::testing
