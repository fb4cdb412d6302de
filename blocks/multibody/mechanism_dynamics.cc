// Mechanism, the dynamics stage: generalized forces to accelerations (the tree's articulated
// body algorithm, or the constrained system when loops are closed) and the state's derivatives.

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "blocks/block_error.h"
#include "blocks/multibody/detail/mechanism_workspace.h"
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::Context;

bool Mechanism::DrivenJointForcesRead(const Context& c) const {
  // Loops read the tree's forces for their cut joints' outputs; keep it simple there.
  if (!m_.loops.empty()) return true;
  for (int port : joint_force_ports_) {
    if (output_demanded(c, port)) return true;
  }
  return false;
}

bool Mechanism::SameFreeBodyDynamics(Workspace& ws) const {
  if (!ws.dynamics_reusable) return false;
  EnsureKinematics(ws);
  if (!ws.posed || ws.dynamics_generation != ws.forces_generation) return false;
  // The forces on the joints that move freely: springs and stops (of the same q and v) and
  // torque inputs.
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) continue;
    for (int k = j.v_index; k < j.v_index + j.nv; ++k) {
      if (ws.u[k] != ws.dynamics_u[k]) return false;
    }
  }
  return true;
}

void Mechanism::Dynamics(const Context& c, Workspace& ws) const {
  const KinematicTree& tree = *m_.tree;
  ws.passive.setZero();
  for (int n : passive_joints_) AddPassiveForces(m_.joints[n], ws, ws.passive.data());
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    if (j.prescribed) {
      if (filter_x_[n] >= 0) {
        // Critically damped second-order filter: qf'' = (u - qf)/tc^2 - 2 qf'/tc.
        const double tc = j.properties.filter_tc;
        ws.u[j.v_index] =
            (in(c, j.in_actuation)[0] - ws.q[j.q_index]) / (tc * tc) - 2.0 * ws.v[j.v_index] / tc;
      } else {
        ws.u[j.v_index] = in(c, j.in_actuation)[2];
      }
      continue;
    }
    for (int k = 0; k < j.nv; ++k) ws.u[j.v_index + k] = ws.passive[j.v_index + k];
    if (j.properties.actuation == Actuation::kTorque) ws.u[j.v_index] += in(c, j.in_actuation)[0];
  }
  if (!m_.tendons.empty()) SetTendonTargets(c, ws);
  if (!m_.drivetrain.clusters.empty()) {
    DrivetrainForces(c, ws);
    for (size_t n = 0; n < m_.joints.size(); ++n) {
      const int cluster = m_.joint_cluster[n];
      if (cluster >= 0) ws.u[m_.joints[n].v_index] += ws.cluster_force[cluster];
    }
  }

  const DrivenForces driven =
      DrivenJointForcesRead(c) ? DrivenForces::kCompute : DrivenForces::kSkip;
  if (reuse_dynamics_ && driven == DrivenForces::kSkip && SameFreeBodyDynamics(ws)) {
    // A major step right after the evaluation at its state (the end of a solver step), with
    // only motion commands new: the free bodies accelerate as they did, the driven joints
    // as commanded.
    for (const MechanismJoint& j : m_.joints) {
      if (j.prescribed) ws.data.qdd.segment(j.v_index, j.nv) = ws.u.segment(j.v_index, j.nv);
    }
    ws.dynamics_valid = true;
    return;
  }
  const std::vector<Vector6d>* f_ext = nullptr;
  if (has_external_forces_) {
    EnsureKinematics(ws);
    for (Vector6d& f : ws.f_ext) f.setZero();
    // A force f (in W) at frame F: in F's body frame, at the body's origin.
    auto apply = [&ws](const FrameLocation& at, const Eigen::Vector3d& f_W,
                       const Eigen::Vector3d& tau_W) {
      if (at.body < 0) return;
      const Eigen::Matrix3d R_BW = ws.data.X_WB[at.body].rotation.transpose();
      const Eigen::Vector3d f_B = R_BW * f_W;
      ws.f_ext[at.body].head<3>() += R_BW * tau_W + at.X_BF.translation.cross(f_B);
      ws.f_ext[at.body].tail<3>() += f_B;
    };
    for (const MechanismExternalForce& f : m_.forces) {
      Eigen::Vector3d force = Eigen::Map<const Eigen::Vector3d>(in(c, f.in_force));
      Eigen::Vector3d torque = Eigen::Map<const Eigen::Vector3d>(in(c, f.in_torque));
      if (!f.world_frame && f.F.body >= 0) {
        const Eigen::Matrix3d R_WF = ws.data.X_WB[f.F.body].rotation * f.F.X_BF.rotation;
        force = R_WF * force;
        torque = R_WF * torque;
      } else if (!f.world_frame) {
        force = f.F.X_BF.rotation * force;
        torque = f.F.X_BF.rotation * torque;
      }
      apply(f.F, force, torque);
    }
    for (const MechanismInternalForce& f : m_.internal_forces) {
      const LineOfAction line = InternalForceLine(ws, f);
      const double magnitude = f.spring_damper
                                   ? -f.k * (line.distance - f.length0) - f.c * line.speed
                                   : in(c, f.in_f)[0];
      apply(f.F, magnitude * line.direction, Eigen::Vector3d::Zero());
      apply(f.B, -magnitude * line.direction, Eigen::Vector3d::Zero());
    }
    for (int i = 0; i < ws.num_contact_forces; ++i) {
      const PointForce& pf = ws.contact_forces[i];
      ApplyAtPoint(ws, pf.body_f, pf.point, pf.force);
      ApplyAtPoint(ws, pf.body_b, pf.point, -pf.force);
    }
    f_ext = &ws.f_ext;
  }
  if (!m_.tendons.empty()) AddTendonForces(c, ws);
  if (!m_.loops.empty()) AddCutJointForces(c, ws);
  bool solved = false;
  if (m_.num_constraint_rows > 0) {
    if (UsesDaeMultipliers(c, ws)) {
      ApplyDaeMultipliers(c, ws);
    } else if (m_.loops.empty() && driven == DrivenForces::kSkip) {
      SolveJointConstraints(ws);
      solved = true;
    } else {
      SolveLoopConstraints(ws);
    }
  }
  if (solved) {
    // SolveJointConstraints placed the bodies (EnsureKinematics) and gave qdd.
  } else if (ws.kinematics_valid) {
    // The contacts placed the bodies at this q and v already.
    AbaHybridAfterKinematics(tree, &ws.data, ws.v, ws.u, m_.prescribed, f_ext, driven);
  } else {
    AbaHybrid(tree, &ws.data, ws.q, ws.v, ws.u, m_.prescribed, f_ext, driven);
    ws.posed = false;  // its X_PB and V are of this q and v, its X_WB of another's
  }
  if (reuse_dynamics_) {
    ws.dynamics_generation = ws.forces_generation;
    ws.dynamics_u = ws.u;  // same size: no allocation
    ws.dynamics_reusable = ws.kinematics_valid && ws.posed && driven == DrivenForces::kSkip &&
                           std::none_of(ws.data.drives_free.begin(), ws.data.drives_free.end(),
                                        [](unsigned char d) { return d != 0; });
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    if (m_.drivetrain.motors[k].kind != drivetrain::MotorKind::kDC) {
      ws.motor_drive[k] = PmsmDrive(c, ws, static_cast<int>(k));
    }
  }
  ws.dynamics_valid = true;
}

void Mechanism::DoCalcDerivatives(Context& c) const {
  Workspace& ws = workspace<Workspace>(c);
  if (!ws.dynamics_valid) Dynamics(c, ws);
  ws.dynamics_valid = false;  // the next evaluation starts at stage 0 again
  WriteDerivatives(c, ws);
}

void Mechanism::WriteDerivatives(Context& c, Workspace& ws) const {
  double* dx = xdot(c);
  CalcQDot(*m_.tree, ws.q, ws.v, ws.qdot);
  for (const CoordinateState& s : free_q_states_) dx[s.state] = ws.qdot[s.coordinate];
  for (const CoordinateState& s : free_v_states_) dx[s.state] = ws.data.qdd[s.coordinate];
  // A filter's two states, q then qd: q' = qd, qd' = its qdd (ws.u of a prescribed joint).
  for (const CoordinateState& s : filter_v_states_) {
    dx[s.state - 1] = ws.v[s.coordinate];
    dx[s.state] = ws.u[s.coordinate];
  }
  for (size_t k = 0; k < tendon_filter_x_.size(); ++k) {
    const int f = tendon_filter_x_[k];
    if (f < 0) continue;
    dx[f] = ws.loops.tendon_target[k][1];
    dx[f + 1] = ws.loops.tendon_target[k][2];
  }
  for (size_t cl = 0; cl < cluster_x_.size(); ++cl) {
    if (cluster_x_[cl] < 0) continue;
    dx[cluster_x_[cl]] = ws.cluster_speed[cl];
    dx[cluster_x_[cl] + 1] = ws.cluster_force[cl] / m_.drivetrain.clusters[cl].inertia;
  }
  for (size_t k = 0; k < motor_x_.size(); ++k) MotorDerivatives(c, ws, static_cast<int>(k));
}

}  // namespace twinblocks::multibody
