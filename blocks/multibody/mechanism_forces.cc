// Mechanism, the forces stage: forces along lines, at points, and the joints' passive forces
// (springs, dampers, stops).

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

Mechanism::LineOfAction Mechanism::InternalForceLine(const Workspace& ws,
                                                     const MechanismInternalForce& f) const {
  Pose X_WB, X_WF;
  Eigen::Vector3d wB, vB, wF, vF;
  FrameMotion(ws, f.B, &X_WB, &wB, &vB);
  FrameMotion(ws, f.F, &X_WF, &wF, &vF);
  const Eigen::Vector3d d = X_WF.translation - X_WB.translation;
  LineOfAction line;
  line.distance = d.norm();
  // Coincident origins have no line: no force, rather than a direction made of round-off.
  line.direction =
      line.distance > 1e-12 ? Eigen::Vector3d(d / line.distance) : Eigen::Vector3d::Zero();
  line.speed = line.direction.dot(vF - vB);
  return line;
}

void Mechanism::ApplyAtPoint(Workspace& ws, int body, const Eigen::Vector3d& p_W,
                             const Eigen::Vector3d& f_W) const {
  ApplyAtPoint(ws, body, p_W, f_W, &ws.f_ext);
}

void Mechanism::ApplyAtPoint(const Workspace& ws, int body, const Eigen::Vector3d& p_W,
                             const Eigen::Vector3d& f_W, std::vector<Vector6d>* wrenches) const {
  if (body < 0) return;
  const Pose& X_WB = ws.data.X_WB[body];
  const Eigen::Matrix3d R_BW = X_WB.rotation.transpose();
  const Eigen::Vector3d f_B = R_BW * f_W;
  (*wrenches)[body].head<3>() += (R_BW * (p_W - X_WB.translation)).cross(f_B);
  (*wrenches)[body].tail<3>() += f_B;
}

void Mechanism::AddPassiveForces(const MechanismJoint& j, const Workspace& ws, double* u) const {
  switch (j.kind) {
    case JointKind::kRevolute:
    case JointKind::kPrismatic: {
      const double q = ws.q[j.q_index], qd = ws.v[j.v_index];
      double f =
          -j.properties.stiffness[0] * (q - j.properties.q_eq[0]) - j.properties.damping[0] * qd;
      f -= internal::StopForce(q - j.properties.upper, qd, j.properties);
      f += internal::StopForce(j.properties.lower - q, -qd, j.properties);
      u[j.v_index] += f;
      break;
    }
    case JointKind::kBushing:
      for (int k = 0; k < 6; ++k) {
        u[j.v_index + k] +=
            -j.properties.stiffness[k] * (ws.q[j.q_index + k] - j.properties.q_eq[k]) -
            j.properties.damping[k] * ws.v[j.v_index + k];
      }
      break;
    case JointKind::kSpherical:
      for (int k = 0; k < 3; ++k) u[j.v_index + k] -= j.properties.damping[k] * ws.v[j.v_index + k];
      break;
    case JointKind::kFree:
    case JointKind::kWeld:
      break;
  }
}

}  // namespace twinblocks::multibody
