// The mechanism models of models/mechanisms/. The slider-crank driven by a DC
// motor through a gear closes its loop to 1e-9 and balances its energy (electrical input =
// mechanical energy + magnetic energy + copper and friction losses); F3, the Stewart platform
// (6-UPS) follows its commanded pose to 1e-9 with leg lengths from StewartIK, and its leg
// forces hold the platform's weight; the Barrett-like hand keeps its finger couplings (Zaidi et al.
// 2020, "Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects" eq. 3) to 1e-9
// and closes.
//
// Quantities of the mechanism are measured outside the run: each logged row's joint outputs
// are put back into the compiled mechanism's tree coordinates (every tree joint must log q and
// qd, or quaternion and w).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/mechanism.h"
#include "compiler/compile.h"
#include "physics/multibody/algorithms.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

/// A model run, and a way to visit its logged rows as tree coordinates.
struct MechanismRun {
  explicit MechanismRun(const std::string& file, const std::string& solver = "")
      : system(graph::Compile(xml::ReadModelFile(SourcePath(file)))) {
    graph::SimulationSettingsValues settings = system.settings();
    if (!solver.empty()) settings.solver = solver;
    graph::Simulator sim(system, settings);
    outcome = sim.Run();
    recording = sim.recording();
    stats = sim.stats();
  }

  const mb::MechanismModel& model() const { return FindMechanism(system).model(); }

  double Value(int row, const std::string& column) const {
    const int col = recording.FindColumn(column);
    EXPECT_GE(col, 0) << column;
    return col < 0 ? 0.0 : recording.value(row, col);
  }

  /// Calls visit(row, q, v, data) for every logged row, after ForwardKinematics(q, v).
  void ForEachRow(const std::function<void(int, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                           const mb::KinematicTreeData&)>& visit) const {
    const mb::MechanismModel& m = model();
    const mb::KinematicTree& tree = *m.tree;
    mb::KinematicTreeData data(tree);
    Eigen::VectorXd q(tree.nq()), v(tree.nv());
    for (int r = 0; r < recording.num_rows(); ++r) {
      for (const mb::MechanismJoint& j : m.joints) {
        if (j.kind == mb::JointKind::kSpherical) {
          Eigen::Vector4d quat;
          Eigen::Vector3d w;
          for (int k = 0; k < 4; ++k) {
            quat[k] = Value(r, j.name + ".quaternion[" + std::to_string(k) + "]");
          }
          for (int k = 0; k < 3; ++k) w[k] = Value(r, j.name + ".w[" + std::to_string(k) + "]");
          q.segment<4>(j.q_index) = quat;
          // The tree's angular velocity is in the body (F) frame, the output's in B.
          const Eigen::Matrix3d R =
              Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).toRotationMatrix();
          v.segment<3>(j.v_index) = R.transpose() * w;
        } else if (j.kind == mb::JointKind::kFree) {
          // q: position, quaternion; v: angular then linear velocity, both in the body frame.
          Eigen::Vector4d quat;
          Eigen::Vector3d pos, w, lin;
          for (int k = 0; k < 4; ++k) {
            quat[k] = Value(r, j.name + ".quaternion[" + std::to_string(k) + "]");
          }
          for (int k = 0; k < 3; ++k) {
            const std::string i = "[" + std::to_string(k) + "]";
            pos[k] = Value(r, j.name + ".position" + i);
            w[k] = Value(r, j.name + ".w" + i);
            lin[k] = Value(r, j.name + ".v" + i);
          }
          q.segment<3>(j.q_index) = pos;
          q.segment<4>(j.q_index + 3) = quat;
          const Eigen::Matrix3d R =
              Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).toRotationMatrix();
          v.segment<3>(j.v_index) = R.transpose() * w;
          v.segment<3>(j.v_index + 3) = R.transpose() * lin;
        } else {
          q[j.q_index] = Value(r, j.name + ".q");
          v[j.v_index] = Value(r, j.name + ".qd");
        }
      }
      mb::ForwardKinematics(tree, &data, q, v);
      visit(r, q, v, data);
    }
  }

  /// max |phi| of the loops and couplings over the rows.
  double ConstraintDrift() const {
    const mb::MechanismModel& m = model();
    mb::LoopClosureData ld(*m.tree, m.loops, {}, m.couplings);
    double worst = 0.0;
    ForEachRow([&](int, const Eigen::VectorXd& q, const Eigen::VectorXd&,
                   const mb::KinematicTreeData& data) {
      mb::CalcLoopPositions(*m.tree, m.loops, data, &ld);
      mb::CalcCouplingPositions(q, &ld);
      worst = std::max(worst, ld.phi.cwiseAbs().maxCoeff());
    });
    return worst;
  }

  graph::System system;
  graph::SimulationOutcome outcome;
  graph::Recording recording;
  graph::SimulationStats stats;
};

TEST(SliderCrankMotor, ClosesItsLoopAndBalancesElectricalAndMechanicalEnergy) {
  const MechanismRun run("models/mechanisms/slider_crank_motor.xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const mb::KinematicTree& tree = *run.model().tree;
  const double L = 1e-3, gear = 10.0;
  double e_mech0 = 0.0, worst = 0.0, worst_gear = 0.0, e_in_end = 0.0;
  run.ForEachRow([&](int r, const Eigen::VectorXd&, const Eigen::VectorXd& v,
                     const mb::KinematicTreeData& data) {
    const double e_mech = mb::KineticEnergy(tree, data) + mb::DriveKineticEnergy(tree, v) +
                          mb::PotentialEnergy(tree, data);
    if (r == 0) e_mech0 = e_mech;
    const double i = run.Value(r, "motor.i");
    const double e_in = run.Value(r, "energy_in.y"), e_loss = run.Value(r, "energy_loss.y");
    worst = std::max(worst, std::abs(e_in - (e_mech - e_mech0) - 0.5 * L * i * i - e_loss));
    worst_gear =
        std::max(worst_gear, std::abs(run.Value(r, "motor.w") - gear * run.Value(r, "crank.qd")));
    e_in_end = e_in;
  });
  EXPECT_GT(run.Value(run.recording.num_rows() - 1, "crank.q"), 20.0);  // rad: it runs up
  EXPECT_GT(e_in_end, 5.0);                                             // J
  EXPECT_LT(worst / e_in_end, 1e-8);
  EXPECT_LT(worst_gear, 1e-9);
  const double drift = run.ConstraintDrift();
  EXPECT_LT(drift, 1e-9);
  RecordProperty("energy_balance_error_relative", Figure(worst / e_in_end));
  RecordProperty("constraint_drift", Figure(drift));
}

/// The Stewart platform's commanded pose (models/mechanisms/stewart.xml): z and roll.
double StewartShape(double a) { return (1.0 - std::cos(a)) * (1.0 - std::cos(a)) / 4.0; }
double StewartZ(double t) { return 0.6 + 0.1 * StewartShape(M_PI * t); }
double StewartRoll(double t) { return 0.15 * StewartShape(1.4 * M_PI * t); }

TEST(StewartPlatform, FollowsTheCommandedPoseAndItsLegForcesHoldAndPowerIt) {
  const MechanismRun run("models/mechanisms/stewart.xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const graph::Recording& rec = run.recording;
  ASSERT_NEAR(rec.time(rec.num_rows() - 1), 5.0, 1e-12);
  ASSERT_EQ(run.model().loops.size(), 6u);  // cut at the six spherical joints

  // The measured pose against the commanded one.
  double worst_pose = 0.0;
  for (int r = 0; r < rec.num_rows(); ++r) {
    const double t = rec.time(r);
    const double expected[6] = {0.0, 0.0, StewartZ(t), 0.0, 0.0, StewartRoll(t)};
    const double measured[6] = {
        run.Value(r, "sensor.position[0]"),  run.Value(r, "sensor.position[1]"),
        run.Value(r, "sensor.position[2]"),  run.Value(r, "sensor.euler_zyx[0]"),
        run.Value(r, "sensor.euler_zyx[1]"), run.Value(r, "sensor.euler_zyx[2]")};
    for (int k = 0; k < 6; ++k)
      worst_pose = std::max(worst_pose, std::abs(measured[k] - expected[k]));
  }
  EXPECT_LT(worst_pose, 1e-9);

  // Statics at t = 0 (at rest, no acceleration): with the lower legs' mass at the universal
  // joints and the pistons' at the balls, each leg pushes along itself, and the six axial
  // forces carry the platform and the pistons: sum_k f_k u_k = (10 + 6 * 0.5) kg * g.
  const double kBase[6] = {-15, 15, 105, 135, 225, 255}, kTop[6] = {-45, 45, 75, 165, 195, 285};
  Eigen::Vector3d total = Eigen::Vector3d::Zero();
  for (int k = 0; k < 6; ++k) {
    const double b = kBase[k] * M_PI / 180.0, p = kTop[k] * M_PI / 180.0;
    const Eigen::Vector3d d(0.3 * std::cos(p) - 0.5 * std::cos(b),
                            0.3 * std::sin(p) - 0.5 * std::sin(b), 0.6);
    const double f = run.Value(0, "leg_" + std::to_string(k + 1) + ".force");
    EXPECT_GT(f, 10.0);  // N, in compression
    total += f * d.normalized();
  }
  const double weight = 13.0 * 9.81;
  EXPECT_LT((total - Eigen::Vector3d(0.0, 0.0, weight)).norm(), 1e-9 * weight);

  // Dynamics: the legs are the only actuators and the joints are ideal, so the legs' work
  // sum_k int f_k Ld_k dt (a state of the run) is the mechanism's change of energy.
  const mb::KinematicTree& tree = *run.model().tree;
  double e0 = 0.0, worst_power = 0.0, largest = 0.0;
  run.ForEachRow([&](int r, const Eigen::VectorXd&, const Eigen::VectorXd&,
                     const mb::KinematicTreeData& data) {
    const double e = mb::KineticEnergy(tree, data) + mb::PotentialEnergy(tree, data);
    if (r == 0) e0 = e;
    largest = std::max(largest, std::abs(e - e0));
    worst_power = std::max(worst_power, std::abs(run.Value(r, "actuator_work.y") - (e - e0)));
  });
  EXPECT_GT(largest, 10.0);  // J: the platform is lifted by 0.1 m and more
  EXPECT_LT(worst_power / largest, 1e-8);
  const double drift = run.ConstraintDrift();
  EXPECT_LT(drift, 1e-9);
  RecordProperty("max_pose_error", Figure(worst_pose));
  RecordProperty("statics_error_N", Figure((total - Eigen::Vector3d(0.0, 0.0, weight)).norm()));
  RecordProperty("work_energy_error_relative", Figure(worst_power / largest));
  RecordProperty("constraint_drift", Figure(drift));
}

TEST(BarrettHand, KeepsItsFingerCouplingsAndCloses) {
  const MechanismRun run("models/mechanisms/barrett_hand.xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const graph::Recording& rec = run.recording;
  const int last = rec.num_rows() - 1;
  double worst = 0.0;
  for (int r = 0; r < rec.num_rows(); ++r) {
    for (int k = 1; k <= 3; ++k) {
      const std::string f = std::to_string(k);
      // Zaidi et al. 2020 eq. 3: proximal = qM / 125, distal = qM / 375.
      worst = std::max(worst, std::abs(run.Value(r, "distal_" + f + ".q") -
                                       run.Value(r, "proximal_" + f + ".q") / 3.0));
      worst = std::max(worst, std::abs(run.Value(r, "distal_" + f + ".qd") -
                                       run.Value(r, "proximal_" + f + ".qd") / 3.0));
    }
    // Spread: +2/35 and -2/35 of motor 4.
    worst = std::max(worst, std::abs(run.Value(r, "spread_2.q") + run.Value(r, "spread_1.q")));
  }
  EXPECT_LT(worst, 1e-9);
  for (int k = 1; k <= 3; ++k) {
    const std::string f = std::to_string(k);
    SCOPED_TRACE("finger " + f);
    EXPECT_GT(run.Value(last, "proximal_" + f + ".q"), 1.0);  // rad: the finger closes
    // Its tip comes down from 0.08 + 0.126 m toward the palm.
    EXPECT_LT(run.Value(last, "tip_sensor_" + f + ".position[2]"),
              run.Value(0, "tip_sensor_" + f + ".position[2]") - 0.05);
    // The coupler holds the distal link up against gravity and its inertia: a real torque.
    EXPECT_GT(std::abs(run.Value(last, "coupling_" + f + ".tau")), 1e-3);
  }
  EXPECT_GT(run.Value(last, "spread_1.q"), 0.2);
  const double drift = run.ConstraintDrift();
  EXPECT_LT(drift, 1e-9);
  RecordProperty("max_coupling_error", Figure(worst));
}

}  // namespace
}  // namespace twinblocks::testing
