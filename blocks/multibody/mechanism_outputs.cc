// Mechanism, the outputs stage: joint, sensor, force and contact outputs, kinematic (stage 0)
// then those that need the accelerations (stage 1).

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

void Mechanism::WriteKinematicOutputs(Context& c, Workspace& ws) const {
  for (const MechanismJoint& j : m_.joints) {
    const double* q = ws.q.data() + j.q_index;
    const double* v = ws.v.data() + j.v_index;
    switch (j.kind) {
      case JointKind::kRevolute:
      case JointKind::kPrismatic:
        // One element: a call to memcpy would cost more than the copy.
        out(c, j.out_q)[0] = q[0];
        out(c, j.out_qd)[0] = v[0];
        break;
      case JointKind::kBushing:
        std::copy(q, q + j.nq, out(c, j.out_q));
        std::copy(v, v + j.nv, out(c, j.out_qd));
        break;
      case JointKind::kSpherical: {
        internal::WriteNormalizedQuaternion(q, out(c, j.out_quaternion));
        const Eigen::Vector3d w = internal::RotationOf(q) * Eigen::Map<const Eigen::Vector3d>(v);
        std::copy(w.data(), w.data() + 3, out(c, j.out_w));
        break;
      }
      case JointKind::kFree: {
        std::copy(q, q + 3, out(c, j.out_position));
        internal::WriteNormalizedQuaternion(q + 3, out(c, j.out_quaternion));
        const Eigen::Matrix3d R = internal::RotationOf(q + 3);
        const Eigen::Vector3d w = R * Eigen::Map<const Eigen::Vector3d>(v);
        const Eigen::Vector3d lin = R * Eigen::Map<const Eigen::Vector3d>(v + 3);
        std::copy(lin.data(), lin.data() + 3, out(c, j.out_v));
        std::copy(w.data(), w.data() + 3, out(c, j.out_w));
        break;
      }
      case JointKind::kWeld:
        break;
    }
  }
  if (!m_.loops.empty()) EnsureKinematics(ws);
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const RelativeMotion rel = CalcRelativeMotion(CalcFrameMotionW(ws.data, nullptr, loop.B),
                                                  CalcFrameMotionW(ws.data, nullptr, loop.F));
    if (loop.kind == JointKind::kSpherical) {
      const Eigen::Quaterniond r(rel.R);
      double* qo = out(c, loop.out_quaternion);
      qo[0] = r.w();
      qo[1] = r.x();
      qo[2] = r.y();
      qo[3] = r.z();
      std::copy_n(rel.w.data(), 3, out(c, loop.out_w));
    } else if (loop.kind == JointKind::kBushing) {
      CalcBushingCoordinates(rel, out(c, loop.out_q), out(c, loop.out_qd));
    } else if (loop.kind == JointKind::kFree) {
      // F's pose in B, and its velocity relative to B in B (the tree free joint's outputs).
      const Eigen::Quaterniond r(rel.R);
      double* qo = out(c, loop.out_quaternion);
      qo[0] = r.w();
      qo[1] = r.x();
      qo[2] = r.y();
      qo[3] = r.z();
      std::copy_n(rel.e.data(), 3, out(c, loop.out_position));
      std::copy_n(rel.e_dot.data(), 3, out(c, loop.out_v));
      std::copy_n(rel.w.data(), 3, out(c, loop.out_w));
    } else {
      const CutJointCoordinate jc = CutCoordinate(c, loop, rel, static_cast<int>(k));
      out(c, loop.out_q)[0] = jc.q;
      out(c, loop.out_qd)[0] = jc.qd;
    }
  }
  for (size_t i = 0; i < m_.drivetrain.sensors.size(); ++i) {
    const drivetrain::RotationalSensor& sensor = m_.drivetrain.sensors[i];
    NodeMotion(ws, sensor.R, sensor.C, out(c, m_.sensor_phi[i]), out(c, m_.sensor_w[i]));
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
    const MechanismMotorPorts& ports = m_.motor_ports[k];
    const double* s = x(c) + motor_x_[k];
    std::copy_n(s, motor.kind == drivetrain::MotorKind::kDC ? 1 : 2, out(c, ports.current));
    out(c, ports.tau)[0] = MotorTorque(c, static_cast<int>(k));
    double phi;
    NodeMotion(ws, motor.R, motor.C, &phi, out(c, ports.w));
  }
  if (!needs_kinematics_) return;
  EnsureKinematics(ws);
  for (const MechanismSensor& s : m_.sensors) {
    // Sensors feed logs and discrete blocks more often than the dynamics: mostly only the
    // major steps need them.
    if (!output_demanded(c, s.out_position) && !output_demanded(c, s.out_rotation) &&
        !output_demanded(c, s.out_v) && !output_demanded(c, s.out_w) &&
        !output_demanded(c, s.out_euler)) {
      continue;
    }
    Pose X_WB, X_WF;
    Eigen::Vector3d wB, vB, wF, vF;
    FrameMotion(ws, s.B, &X_WB, &wB, &vB);
    FrameMotion(ws, s.F, &X_WF, &wF, &vF);
    const Eigen::Matrix3d R_BW = X_WB.rotation.transpose();
    const Eigen::Vector3d d_W = X_WF.translation - X_WB.translation;
    const Eigen::Vector3d p = R_BW * d_W;
    const Eigen::Matrix3d R = R_BW * X_WF.rotation;
    // dp/dt as seen in B: the relative velocity less what B's rotation alone would give.
    const Eigen::Vector3d v = R_BW * (vF - vB - wB.cross(d_W));
    const Eigen::Vector3d w = R_BW * (wF - wB);
    double* po = out(c, s.out_position);
    double* ro = out(c, s.out_rotation);
    double* vo = out(c, s.out_v);
    double* wo = out(c, s.out_w);
    double* eo = out(c, s.out_euler);
    for (int k = 0; k < 3; ++k) {
      po[k] = p[k];
      vo[k] = v[k];
      wo[k] = w[k];
      for (int l = 0; l < 3; ++l) ro[3 * k + l] = R(k, l);
    }
    // R = Rz(a) Ry(b) Rx(g).
    eo[1] = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
    eo[0] = std::atan2(R(1, 0), R(0, 0));
    eo[2] = std::atan2(R(2, 1), R(2, 2));
  }
  for (const MechanismInternalForce& f : m_.internal_forces) {
    const LineOfAction line = InternalForceLine(ws, f);
    out(c, f.out_distance)[0] = line.distance;
    out(c, f.out_speed)[0] = line.speed;
  }
  if (m_.contacts.empty()) return;
  EvaluateContacts(c, ws);
  for (size_t k = 0; k < m_.contacts.size(); ++k) {
    const MechanismContact& con = m_.contacts[k];
    const ContactResult& r = ws.contact[k];
    out(c, con.out_fn)[0] = r.fn;
    out(c, con.out_ff)[0] = r.ff;
    double* force = out(c, con.out_force);
    for (int i = 0; i < 3; ++i) force[i] = r.force[i];
    if (ws.geometry_deferred[k] != 0) continue;  // not read in this evaluation
    out(c, con.out_distance)[0] = r.distance;
    // Element by element: std::copy_n of three doubles is a call to memmove.
    double* point = out(c, con.out_point);
    double* normal = out(c, con.out_normal);
    for (int i = 0; i < 3; ++i) {
      point[i] = r.point[i];
      normal[i] = r.normal[i];
    }
  }
}

void Mechanism::DoCalcZeroCrossings(Context& c) const {
  Workspace& ws = workspace<Workspace>(c);
  CompleteContactGeometry(ws);
  double* z = zc(c);
  for (size_t k = 0; k < m_.contacts.size(); ++k) z[k] = ws.contact[k].distance;
}

void Mechanism::WriteDynamicOutputs(Context& c, Workspace& ws) const {
  const KinematicTreeData& data = ws.data;
  if (!m_.loops.empty()) {
    // The loops' accelerations at the constrained qdd, for the cut joints' qdd.
    CalcSpatialAccelerations(*m_.tree, ws.data, &ws.data.qdd, &ws.loops.A);
  }
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const FrameMotionW B = CalcFrameMotionW(ws.data, &ws.loops.A, loop.B);
    const FrameMotionW F = CalcFrameMotionW(ws.data, &ws.loops.A, loop.F);
    const RelativeMotion rel = CalcRelativeMotion(B, F);
    // What B transmits to F: the constraint's wrench and the joint's own force, at F's origin.
    const Vector6d w = LoopWrenchW(loop, ws.loops, static_cast<int>(k)) + ws.cut_force[k];
    double actuator = 0.0;
    if (loop.kind == JointKind::kRevolute || loop.kind == JointKind::kPrismatic) {
      const CutJointCoordinate jc = CutCoordinate(c, loop, rel, static_cast<int>(k));
      out(c, loop.out_qdd)[0] = jc.qdd;
      if (loop.properties.actuation == Actuation::kTorque) actuator = in(c, loop.in_actuation)[0];
      out(c, loop.out_torque)[0] = actuator;
    }
    const Eigen::Matrix3d R_FW = F.X_WF.rotation.transpose();
    const Eigen::Vector3d force = R_FW * w.tail<3>(), torque = R_FW * w.head<3>();
    double* wo = out(c, loop.out_wrench);
    for (int i = 0; i < 3; ++i) {
      wo[i] = force[i];
      wo[3 + i] = torque[i];
    }
  }
  for (const JointCoupling& coupling : m_.couplings) {
    out(c, coupling.out_tau)[0] = ws.loops.lambda[coupling.row];
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    if (!m_.motor_ports[k].vdq.connected()) continue;
    const Eigen::Vector2d& vdq = ws.motor_drive[k].vdq;
    std::copy_n(vdq.data(), 2, out(c, m_.motor_ports[k].vdq));
  }
  for (const MechanismJoint& j : m_.joints) {
    if (j.out_qdd.connected()) out(c, j.out_qdd)[0] = data.qdd[j.v_index];
    if (j.out_torque.connected() && output_demanded(c, j.out_torque)) {
      double actuator = 0.0;
      if (j.properties.actuation == Actuation::kTorque)
        actuator = ws.u[j.v_index] - ws.passive[j.v_index];
      // Through a shaft: what the drivetrain delivers to the joint.
      if (j.properties.actuation == Actuation::kPort) {
        actuator = ws.cluster_force[m_.joint_cluster[&j - m_.joints.data()]];
      }
      // The actuator supplies what the motion needs beyond the joint's own springs and stops.
      if (j.prescribed) actuator = data.tau[j.v_index] - ws.passive[j.v_index];
      out(c, j.out_torque)[0] = actuator;
    }
    if (j.out_wrench.connected() && output_demanded(c, j.out_wrench)) {
      // What the tree's parent side transmits to the child body, at its origin, in its frame.
      Vector6d f = data.F[j.body];
      if (j.reversed) {
        // The child is on B's side: F receives the opposite, seen from F (= the joint frame).
        const Pose X_FB = j.X_JF_reversed * data.X_PB[j.body];
        f = X_FB.ActForce(-f);
      }
      double* w = out(c, j.out_wrench);
      for (int k = 0; k < 3; ++k) {
        w[k] = f[3 + k];
        w[3 + k] = f[k];
      }
    }
  }
}

void Mechanism::DoCalcOutputs(Context& c, int stage) const {
  Workspace& ws = workspace<Workspace>(c);
  if (stage == 0) {
    AssembleCoordinates(c, ws);
    WriteKinematicOutputs(c, ws);
    if (!m_.tendons.empty()) WriteTendonOutputs(c, ws, 0);
    return;
  }
  // Nothing of stage 1 read now (a major step that records no row, a zero-crossing
  // evaluation, an evaluation whose blocks read only positions and contact forces): the
  // accelerations wait for DoCalcDerivatives, which solves them where it runs.
  if (!stage_demanded(c, 1)) return;
  Dynamics(c, ws);
  WriteDynamicOutputs(c, ws);
  if (!m_.tendons.empty()) WriteTendonOutputs(c, ws, 1);
}

}  // namespace twinblocks::multibody
