// The JointCoupler. Two flywheels coupled by a reversing 2:1 coupling under a
// constant torque follow the closed form (one inertia J_b + ratio^2 J_a) to 1e-9, and the
// coupler's torque is J_a qdd_a; two pendulums coupled 1:2 conserve their energy to 1e-8 (of
// the largest kinetic energy) and keep the coupling to 1e-9; the low-priority joint is
// assembled onto the coupling. Bad couplers are one-line errors with exit status 2.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "blocks/multibody/mechanism.h"
#include "compiler/compile.h"
#include "physics/multibody/algorithms.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

TEST(JointCoupler, CoupledFlywheelsFollowTheClosedForm) {
  const RunOutput out = RunModelFile("tests/data/xml/coupled_flywheels.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double ratio = -2.0, offset = 0.3, tau = 0.5, J_a = 0.01, J_b = 0.02;
  const double alpha = tau / (J_b + ratio * ratio * J_a);  // qdd_b
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> qa = Column(out.recording, "a.q"), qda = Column(out.recording, "a.qd");
  const std::vector<double> qb = Column(out.recording, "b.q"), qdb = Column(out.recording, "b.qd");
  const std::vector<double> force = Column(out.recording, "gear.tau");
  ASSERT_NEAR(t.back(), 2.0, 1e-12);
  double worst_q = 0.0, worst_v = 0.0, worst_coupling = 0.0, worst_tau = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double q = 0.5 * alpha * t[i] * t[i], v = alpha * t[i];
    worst_q = std::max({worst_q, std::abs(qb[i] - q), std::abs(qa[i] - (ratio * q + offset))});
    worst_v = std::max({worst_v, std::abs(qdb[i] - v), std::abs(qda[i] - ratio * v)});
    worst_coupling = std::max(worst_coupling, std::abs(qa[i] - ratio * qb[i] - offset));
    worst_tau = std::max(worst_tau, std::abs(force[i] - J_a * ratio * alpha));
  }
  EXPECT_LT(worst_q, 1e-9);
  EXPECT_LT(worst_v, 1e-9);
  EXPECT_LT(worst_coupling, 1e-9);
  EXPECT_LT(worst_tau, 1e-9);
  EXPECT_GT(qb.back(), 16.0);  // rad: it really turns
  RecordProperty("max_position_error_rad", Figure(worst_q));
  RecordProperty("max_coupler_torque_error_Nm", Figure(worst_tau));
}

TEST(JointCoupler, CoupledPendulumsConserveEnergyAndKeepTheCoupling) {
  for (const char* solver : {"ode45", "ida"}) {
    SCOPED_TRACE(solver);
    const graph::System system =
        graph::Compile(xml::ReadModelFile(SourcePath("tests/data/xml/coupled_pendulums.xml")));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    graph::Simulator sim(system, settings);
    const graph::SimulationOutcome outcome = sim.Run();
    ASSERT_TRUE(outcome.ok) << outcome.error;
    const graph::Recording& rec = sim.recording();
    const mb::MechanismModel& m = FindMechanism(system).model();
    const mb::KinematicTree& tree = *m.tree;
    mb::KinematicTreeData data(tree);
    Eigen::VectorXd q(tree.nq()), v(tree.nv());
    const std::vector<double> qa = Column(rec, "a.q"), qda = Column(rec, "a.qd");
    const std::vector<double> qb = Column(rec, "b.q"), qdb = Column(rec, "b.qd");
    // Assembly: b's targets are kept, a moves onto the coupling.
    EXPECT_NEAR(qb[0], 1.2, 1e-12);
    EXPECT_NEAR(qdb[0], 0.5, 1e-12);
    EXPECT_NEAR(qa[0], 0.4, 1e-12);
    EXPECT_NEAR(qda[0], 0.25, 1e-12);
    double e0 = 0.0, worst_energy = 0.0, max_kinetic = 0.0, worst_coupling = 0.0;
    double min_b = qb[0], max_b = qb[0];
    for (size_t r = 0; r < qa.size(); ++r) {
      for (const mb::MechanismJoint& j : m.joints) {
        q[j.q_index] = j.name == "a" ? qa[r] : qb[r];
        v[j.v_index] = j.name == "a" ? qda[r] : qdb[r];
      }
      mb::ForwardKinematics(tree, &data, q, v);
      const double kinetic = mb::KineticEnergy(tree, data);
      const double e = kinetic + mb::PotentialEnergy(tree, data);
      if (r == 0) e0 = e;
      worst_energy = std::max(worst_energy, std::abs(e - e0));
      max_kinetic = std::max(max_kinetic, kinetic);
      worst_coupling = std::max(worst_coupling, std::abs(qa[r] - 0.5 * qb[r] + 0.2));
      min_b = std::min(min_b, qb[r]);
      max_b = std::max(max_b, qb[r]);
    }
    EXPECT_GT(max_b - min_b, 1.0);  // rad: it swings
    EXPECT_LT(worst_coupling, 1e-9);
    EXPECT_LT(worst_energy / max_kinetic, 1e-8);
    RecordProperty(std::string("energy_drift_") + solver, Figure(worst_energy / max_kinetic));
  }
}

struct BadCoupler {
  const char* file;
  int line;
  const char* says;
};

class BadJointCouplers : public ::testing::TestWithParam<BadCoupler> {};

TEST_P(BadJointCouplers, OneLineWithFileLineAndStatus2) {
  const BadCoupler& c = GetParam();
  const std::string path = std::string(TWINBLOCKS_TEST_DATA) + "/bad_models/" + c.file;
  ExpectOneLineBadInput(path, c.file, c.line, {c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, BadJointCouplers,
    ::testing::Values(
        BadCoupler{"coupler_ratio_zero.xml", 5, "parameter 'ratio' must be non-zero"},
        BadCoupler{"coupler_not_on_joint.xml", 5,
                   "coupler 'gear': port A is not connected to a joint's shaft"},
        BadCoupler{"coupler_same_joint.xml", 5, "ports A and B are both on joint 'a'"},
        BadCoupler{"coupler_open_port.xml", 5, "coupler 'gear': port B is not connected"},
        BadCoupler{"coupler_contradictory.xml", 6,
                   "the coupling 'second_gear' of joints 'a' and 'b' cannot be assembled: its "
                   "residual stays 0.5"},
        BadCoupler{"stewart_ik_five_legs.xml", 4,
                   "parameter 'base' must be six points, a 6 x 3 matrix"}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

}  // namespace
}  // namespace twinblocks::testing
