// Mechanism, the tendons: their commands, the forces of force-driven and elastic tendons and
// of their springs, their outputs, and the synergy equilibria. A rigid tendon's constraint is
// a row of the loops' system (mechanism_loops.cc, loop_closure.cc).

#include <cmath>

#include "blocks/multibody/detail/mechanism_workspace.h"
#include "blocks/multibody/detail/synergy_problem.h"
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::Context;

void Mechanism::SetTendonTargets(const Context& c, Workspace& ws) const {
  const double* xs = x(c);
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const MechanismTendon& t = m_.tendons[k];
    if (t.force_driven) continue;
    Eigen::Vector3d& target = ws.loops.tendon_target[k];
    const double* u = in(c, t.in_command);
    const int f = tendon_filter_x_[k];
    if (f >= 0) {
      // Critically damped: s'' = (s_cmd - s) / tc^2 - 2 s' / tc.
      const double command = t.sigma_scaling * (u[0] + t.sigma_offset);
      const double tc = t.filter_tc;
      target << xs[f], xs[f + 1], (command - xs[f]) / (tc * tc) - 2.0 * xs[f + 1] / tc;
    } else {
      target << t.sigma_scaling * (u[0] + t.sigma_offset), t.sigma_scaling * u[1],
          t.sigma_scaling * u[2];
    }
  }
}

void Mechanism::AddTendonForces(const Context& c, Workspace& ws) const {
  const internal::TendonArms& arms = ws.loops.arms;
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const MechanismTendon& t = m_.tendons[k];
    const int tendon = static_cast<int>(k);
    double f = 0.0;
    const bool pulls = t.force_driven || t.elastic;
    if (t.force_driven) {
      f = in(c, t.in_command)[0];
    } else if (t.elastic) {
      const Eigen::Vector3d& target = ws.loops.tendon_target[k];
      double length_rate = 0.0;
      for (size_t j = 0; j < t.joints.size(); ++j) {
        length_rate +=
            arms.Arm(t, tendon, static_cast<int>(j), ws.q[t.q_index[j]]) * ws.v[t.v_index[j]];
      }
      f = t.stiffness * (target[0] - arms.Length(t, tendon, ws.q)) +
          t.damping * (target[1] - length_rate);
    }
    if (pulls) ws.tendon_force[k] = f;
    for (size_t j = 0; j < t.joints.size(); ++j) {
      const MechanismJoint& joint = m_.joints[t.joints[j]];
      const double q_j = ws.q[t.q_index[j]];
      double tau = 0.0;
      if (pulls) tau += arms.Arm(t, tendon, static_cast<int>(j), q_j) * f;
      if (t.E.size() > 0) tau -= t.E[j] * (q_j - t.q_rest[j]);
      if (tau == 0.0) continue;
      if (!joint.prescribed) {
        ws.u[joint.v_index] += tau;
      } else if (has_external_forces_) {
        ApplyJointForce(ws, joint.body, tau);  // a load the joint's actuator carries
      }
    }
  }
}

void Mechanism::AddTendonForceTerms(Workspace& ws) const {
  const int nv = m_.tree->nv();
  auto dqdd_dv = ws.dqdd.leftCols(nv);
  auto dqdd_dq = ws.dqdd.rightCols(nv);
  const internal::TendonArms& arms = ws.loops.arms;
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const MechanismTendon& t = m_.tendons[k];
    const int tendon = static_cast<int>(k);
    const int n = static_cast<int>(t.joints.size());
    for (int i = 0; i < n; ++i) {
      if (m_.joints[t.joints[i]].prescribed) continue;
      const int a = free_index_of_v_[t.v_index[i]];
      if (t.E.size() > 0) dqdd_dq(a, t.v_index[i]) -= t.E[i];
      if (!t.elastic) continue;
      // tau_i = r_i f, f = k (s - l) + c (sd - R v): d tau_i / d q_j = -k r_i r_j (+ r_i' f on
      // the diagonal), d tau_i / d v_j = -c r_i r_j.
      const double r_i = arms.Arm(t, tendon, i, ws.q[t.q_index[i]]);
      for (int j = 0; j < n; ++j) {
        const double r_j = arms.Arm(t, tendon, j, ws.q[t.q_index[j]]);
        dqdd_dq(a, t.v_index[j]) -= t.stiffness * r_i * r_j;
        dqdd_dv(a, t.v_index[j]) -= t.damping * r_i * r_j;
      }
      dqdd_dq(a, t.v_index[i]) +=
          arms.ArmSlope(t, tendon, i, ws.q[t.q_index[i]]) * ws.tendon_force[k];
    }
  }
}

void Mechanism::WriteTendonOutputs(Context& c, Workspace& ws, int stage) const {
  if (stage == 0) {
    for (size_t k = 0; k < m_.tendons.size(); ++k) {
      const MechanismTendon& t = m_.tendons[k];
      if (!t.out_length.connected() || !output_demanded(c, t.out_length)) continue;
      out(c, t.out_length)[0] = ws.loops.arms.Length(t, static_cast<int>(k), ws.q);
    }
    return;
  }
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const MechanismTendon& t = m_.tendons[k];
    if (!t.out_f.connected()) continue;
    out(c, t.out_f)[0] = t.row >= 0 ? ws.loops.lambda[t.row] : ws.tendon_force[k];
  }
  for (size_t k = 0; k < m_.equilibria.size(); ++k) {
    const MechanismSynergyEquilibrium& eq = m_.equilibria[k];
    if (!output_demanded(c, eq.out_q) && !output_demanded(c, eq.out_f)) continue;
    SolveSynergyEquilibrium(c, ws, k);
  }
}

void Mechanism::SolveSynergyEquilibrium(Context& c, Workspace& ws, size_t k) const {
  const MechanismSynergyEquilibrium& eq = m_.equilibria[k];
  const KinematicTree& tree = *m_.tree;
  SynergyEquilibriumSolver& solver = ws.equilibria[k];
  EnsureKinematics(ws);
  // tau_ext = J^T f_c over every contact point (each force on f, its opposite on b), and the
  // weights J_com^T m g: at rest, RNEA gives the joint forces that hold the tree against them,
  // g(q) - J^T f_c, in one pass over the bodies.
  for (Vector6d& f : ws.statics_forces) f.setZero();
  for (int i = 0; i < ws.num_contact_forces; ++i) {
    const PointForce& pf = ws.contact_forces[i];
    ApplyAtPoint(ws, pf.body_f, pf.point, pf.force, &ws.statics_forces);
    ApplyAtPoint(ws, pf.body_b, pf.point, -pf.force, &ws.statics_forces);
  }
  ws.tau_ext = -Rnea(tree, &ws.statics, ws.q, ws.zero_v, ws.zero_v, &ws.statics_forces);
  // Without the weights: less the gravity's part (RNEA with no force at all).
  if (!eq.gravity) ws.tau_ext += Rnea(tree, &ws.statics, ws.q, ws.zero_v, ws.zero_v);
  const int n = static_cast<int>(eq.joints.size());
  for (int a = 0; a < n; ++a) {
    const MechanismJoint& j = m_.joints[eq.joints[a]];
    solver.tau_ext[a] = ws.tau_ext[j.v_index];
    solver.q[a] = ws.q[j.q_index];
  }
  for (size_t i = 0; i < eq.tendons.size(); ++i) {
    solver.s[static_cast<Eigen::Index>(i)] = ws.loops.tendon_target[eq.tendons[i]][0];
  }
  ws.q_scratch = ws.q;
  const bool solved = solver.Solve(
      [&](const Eigen::VectorXd& q, Eigen::VectorXd& l, Eigen::MatrixXd& R, Eigen::MatrixXd& dR) {
        internal::EvaluateSynergyTendons(m_, eq, ws.loops.arms, q, ws.q_scratch, l, R, dR);
      });
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int n_tendon = static_cast<int>(m_.tendons[eq.tendon].joints.size());
  double* q_out = out(c, eq.out_q);
  for (int a = 0; a < n_tendon; ++a) q_out[a] = solved ? solver.q[a] : nan;
  out(c, eq.out_f)[0] = solved ? solver.f[0] : nan;
}

}  // namespace twinblocks::multibody
