// Conservation: the reference arm with no input and no damping, released from a non-zero
// pose under gravity, keeps its total energy to 1e-9 relative over 10 s (ode45, rtol 1e-12);
// a torque-free asymmetric box on a FreeJoint keeps its energy and angular momentum to 1e-10
// and shows the intermediate-axis flip (the Dzhanibekov effect).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "physics/multibody/algorithms.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/test_trees.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

TEST(EnergyConservation, ReleasedArmKeepsItsEnergyOverTenSeconds) {
  // The arm of models/robot6dof/arm.xml, its links passive, started away from q = 0.
  std::string xml = R"xml(<model name="released_arm">
    <include file="../models/lib/dh.xml"/>
    <simulation solver="ode45" t_end="10" rtol="1e-12" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world"/>)xml";
  const double alpha[] = {0, -90, 0, -90, 90, -90}, a[] = {0, 0.15, 0.4, 0.1, 0, 0},
               d[] = {0.5, 0, 0, 0.54, 0, 0.1}, mass[] = {20, 15, 10, 5, 3, 1},
               q0[] = {0.3, -0.8, 0.5, 1.0, -0.6, 0.2};
  const char* com[] = {"[0.075, 0, 0]", "[0.2, 0, 0]",  "[0.05, 0.27, 0]",
                       "[0, 0, 0]",     "[0, 0.05, 0]", "[0, 0, 0.05]"};
  const double inertia[] = {0.2, 0.15, 0.1, 0.05, 0.03, 0.01};
  for (int i = 0; i < 6; ++i) {
    const std::string I = std::to_string(inertia[i]);
    xml += "<block type=\"ModifiedDhLinkPassive\" name=\"link" + std::to_string(i + 1) +
           "\" alpha=\"deg(" + std::to_string(alpha[i]) + ")\" a=\"" + std::to_string(a[i]) +
           "\" d=\"" + std::to_string(d[i]) + "\" offset=\"0\" mass=\"" + std::to_string(mass[i]) +
           "\" com=\"" + com[i] + "\" inertia=\"[[" + I + ",0,0],[0," + I + ",0],[0,0," + I +
           "]]\" q0=\"" + std::to_string(q0[i]) + "\" damping=\"0\"/>\n";
    xml += "<log signal=\"link" + std::to_string(i + 1) + ".q\"/><log signal=\"link" +
           std::to_string(i + 1) + ".qd\"/>\n";
  }
  xml += "<connect from=\"world.W\" to=\"link1.B\"/>\n";
  for (int i = 1; i < 6; ++i) {
    xml += "<connect from=\"link" + std::to_string(i) + ".F\" to=\"link" + std::to_string(i + 1) +
           ".B\"/>\n";
  }
  xml += "</model>";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;

  const mb::KinematicTree tree = mb::testing::ReferenceArm();
  mb::KinematicTreeData data(tree);
  std::vector<std::vector<double>> q, qd;
  for (int i = 1; i <= 6; ++i) {
    q.push_back(Column(out.recording, "link" + std::to_string(i) + ".q"));
    qd.push_back(Column(out.recording, "link" + std::to_string(i) + ".qd"));
  }
  Eigen::VectorXd qv(6), vv(6);
  double e0 = 0.0, worst = 0.0, kinetic_max = 0.0;
  for (size_t r = 0; r < q[0].size(); ++r) {
    for (int j = 0; j < 6; ++j) {
      qv[j] = q[j][r];
      vv[j] = qd[j][r];
    }
    mb::ForwardKinematics(tree, &data, qv, vv);
    const double kinetic = mb::KineticEnergy(tree, data);
    const double e = kinetic + mb::PotentialEnergy(tree, data);
    if (r == 0) e0 = e;
    worst = std::max(worst, std::abs(e - e0));
    kinetic_max = std::max(kinetic_max, kinetic);
  }
  ASSERT_GT(kinetic_max, 10.0);  // it really swings
  // Relative to the energy that changes form (the largest kinetic energy): stricter than
  // relative to E(0), whose size depends on where potential energy is zero.
  EXPECT_LT(worst / kinetic_max, 1e-9);
  RecordProperty("energy_drift_relative_to_max_kinetic", Figure(worst / kinetic_max));
  RecordProperty("energy_drift_relative_to_E0", Figure(worst / std::abs(e0)));
  RecordProperty("max_kinetic_energy_J", Figure(kinetic_max));
}

TEST(EnergyConservation, FreeAsymmetricBoxKeepsEnergyAndMomentumAndFlips) {
  // A 0.3 x 0.2 x 0.1 m box: y is the intermediate principal axis. Spun mostly about y, it
  // flips over periodically while its momentum stays fixed in space.
  const char* xml = R"xml(<model name="free_box">
    <simulation solver="ode45" t_end="20" rtol="1e-12" atol="1e-14" output_interval="0.005"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="FreeJoint" name="free" position0="[0, 0, 1]" w0="[0.01, 4, 0.01]"
           v0="[0.1, 0, 0]"/>
    <block type="Solid" name="box" shape="box" size="[0.3, 0.2, 0.1]" density="1000"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="box.R"/>
    <log signal="free.quaternion"/>
    <log signal="free.w"/>
    <log signal="free.v"/>
    <log signal="free.position"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double m = 1000.0 * 0.3 * 0.2 * 0.1;
  const Eigen::Vector3d I_diag(m / 12 * (0.04 + 0.01), m / 12 * (0.09 + 0.01),
                               m / 12 * (0.09 + 0.04));
  auto col = [&](const std::string& name, int i) {
    return Column(out.recording, name + "[" + std::to_string(i) + "]");
  };
  std::vector<std::vector<double>> quat, w, v, p;
  for (int i = 0; i < 4; ++i) quat.push_back(col("free.quaternion", i));
  for (int i = 0; i < 3; ++i) {
    w.push_back(col("free.w", i));
    v.push_back(col("free.v", i));
    p.push_back(col("free.position", i));
  }
  const std::vector<double> t = Times(out.recording);
  double e0 = 0.0, worst_e = 0.0, worst_l = 0.0, l0_norm = 0.0, worst_p = 0.0;
  Eigen::Vector3d L0 = Eigen::Vector3d::Zero();
  int flips = 0;
  double last_sign = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    const Eigen::Matrix3d R =
        Eigen::Quaterniond(quat[0][r], quat[1][r], quat[2][r], quat[3][r]).toRotationMatrix();
    const Eigen::Vector3d w_W(w[0][r], w[1][r], w[2][r]);
    const Eigen::Vector3d w_B = R.transpose() * w_W;
    const Eigen::Vector3d v_W(v[0][r], v[1][r], v[2][r]);
    const double e = 0.5 * w_B.dot(I_diag.cwiseProduct(w_B)) + 0.5 * m * v_W.squaredNorm();
    const Eigen::Vector3d L = R * I_diag.cwiseProduct(w_B);
    if (r == 0) {
      e0 = e;
      L0 = L;
      l0_norm = L.norm();
    }
    worst_e = std::max(worst_e, std::abs(e - e0) / e0);
    worst_l = std::max(worst_l, (L - L0).norm() / l0_norm);
    // The centre of mass moves uniformly: p = p0 + v0 t.
    worst_p = std::max(worst_p, std::abs(p[0][r] - 0.1 * t[r]) + std::abs(p[2][r] - 1.0));
    const double sign = w_B.y() > 0 ? 1.0 : -1.0;
    if (last_sign != 0.0 && sign != last_sign) ++flips;
    last_sign = sign;
  }
  EXPECT_LT(worst_e, 1e-10);
  EXPECT_LT(worst_l, 1e-10);
  EXPECT_LT(worst_p, 1e-9);
  EXPECT_GE(flips, 2) << "the spin about the intermediate axis should reverse";
  RecordProperty("energy_drift_relative", Figure(worst_e));
  RecordProperty("momentum_drift_relative", Figure(worst_l));
  RecordProperty("intermediate_axis_reversals", std::to_string(flips));
}

}  // namespace
}  // namespace twinblocks::testing
