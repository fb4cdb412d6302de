#include "blocks/multibody/detail/synergy_problem.h"

namespace twinblocks::multibody::internal {

SynergyEquilibriumSolver MakeSynergySolver(const MechanismModel& m,
                                           const MechanismSynergyEquilibrium& eq) {
  const int n = static_cast<int>(eq.joints.size());
  SynergyEquilibriumSolver s(n, static_cast<int>(eq.tendons.size()),
                             static_cast<int>(eq.couplings.size()));
  // The joints' own springs, then the tendons' E: -sum k (q - r) = -K q + b.
  for (int a = 0; a < n; ++a) {
    const JointProperties& p = m.joints[eq.joints[a]].properties;
    s.K[a] = p.stiffness[0];
    s.b[a] = p.stiffness[0] * p.q_eq[0];
  }
  for (size_t i = 0; i < eq.tendons.size(); ++i) {
    const MechanismTendon& tendon = m.tendons[eq.tendons[i]];
    if (tendon.E.size() == 0) continue;
    for (size_t j = 0; j < tendon.joints.size(); ++j) {
      const int a = eq.tendon_columns[i][j];
      s.K[a] += tendon.E[j];
      s.b[a] += tendon.E[j] * tendon.q_rest[j];
    }
  }
  for (size_t k = 0; k < eq.couplings.size(); ++k) {
    const JointCoupling& c = m.couplings[eq.couplings[k]];
    s.C(k, eq.coupling_columns[k].first) += 1.0;
    s.C(k, eq.coupling_columns[k].second) -= c.ratio;
    s.d[k] = c.offset;
  }
  return s;
}

void EvaluateSynergyTendons(const MechanismModel& m, const MechanismSynergyEquilibrium& eq,
                            const TendonArms& arms, const Eigen::VectorXd& q_eq,
                            Eigen::VectorXd& q_tree, Eigen::VectorXd& l, Eigen::MatrixXd& R,
                            Eigen::MatrixXd& dR) {
  for (size_t a = 0; a < eq.joints.size(); ++a) q_tree[m.joints[eq.joints[a]].q_index] = q_eq[a];
  R.setZero();
  dR.setZero();
  for (size_t i = 0; i < eq.tendons.size(); ++i) {
    const int t = eq.tendons[i];
    const MechanismTendon& tendon = m.tendons[t];
    l[i] = arms.Length(tendon, t, q_tree);
    for (size_t j = 0; j < tendon.joints.size(); ++j) {
      const int a = eq.tendon_columns[i][j];
      const double q_j = q_tree[tendon.q_index[j]];
      R(i, a) = arms.Arm(tendon, t, static_cast<int>(j), q_j);
      dR(i, a) = arms.ArmSlope(tendon, t, static_cast<int>(j), q_j);
    }
  }
}

}  // namespace twinblocks::multibody::internal
