#include "blocks/multibody/loop_constraint.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace twinblocks::multibody {

int LoopConstraintRows(JointKind kind) {
  switch (kind) {
    case JointKind::kRevolute:
    case JointKind::kPrismatic:
      return 5;
    case JointKind::kSpherical:
      return 3;
    case JointKind::kFree:
    case JointKind::kBushing:
      return 0;  // they lock nothing: the loop is closed by a bushing's forces or by nothing
    case JointKind::kWeld:
      break;
  }
  return -1;
}

void CalcBushingCoordinates(const RelativeMotion& rel, double* q, double* qd) {
  // The tree's bushing (mechanism_builder.cc) is prismatic x, y, z along B's axes, then
  // revolute about x, about the new y, about the newest z: e = (x, y, z) and
  // R = Rx(a) Ry(b) Rz(c), whose last column is (sb, -sa cb, ca cb) and first row
  // (cb cc, -cb sc, sb).
  const Eigen::Matrix3d& R = rel.R;
  const double a = std::atan2(-R(1, 2), R(2, 2));
  const double b = std::asin(std::clamp(R(0, 2), -1.0, 1.0));
  const double c = std::atan2(-R(0, 1), R(0, 0));
  for (int k = 0; k < 3; ++k) {
    q[k] = rel.e[k];
    qd[k] = rel.e_dot[k];
  }
  q[3] = a;
  q[4] = b;
  q[5] = c;
  // w = E (a', b', c') with E's columns the three axes in B: x, Rx(a) y, Rx(a) Ry(b) z.
  const Eigen::Matrix3d E = BushingRateMatrix(a, b);
  const Eigen::Vector3d rates = E.partialPivLu().solve(rel.w);
  for (int k = 0; k < 3; ++k) qd[3 + k] = rates[k];
}

Eigen::Matrix3d BushingRateMatrix(double a, double b) {
  const double ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b);
  Eigen::Matrix3d E;
  E << 1.0, 0.0, sb,  //
      0.0, ca, -sa * cb, 0.0, sa, ca * cb;
  return E;
}

void CalcSpatialAccelerations(const KinematicTree& tree, const KinematicTreeData& data,
                              const Eigen::VectorXd* qdd, std::vector<Vector6d>* A) {
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const int iv = tree.idx_v(i);
    const int p = tree.parent(i);
    // The joint's velocity S v is the body's velocity less the parent's carried over; the
    // body frame moving with V turns it: the velocity-product term V x (S v).
    Vector6d v_J = data.V[i];
    Vector6d a = Vector6d::Zero();
    if (p >= 0) {
      v_J -= data.X_PB[i].InvActMotion(data.V[p]);
      a = data.X_PB[i].InvActMotion((*A)[p]) + CrossMotion(data.V[i], v_J);
    }
    if (qdd != nullptr) {
      for (int k = 0; k < joint.nv(); ++k) a += S.col(k) * (*qdd)[iv + k];
    }
    (*A)[i] = a;
  }
}

FrameMotionW CalcFrameMotionW(const KinematicTreeData& data, const std::vector<Vector6d>* A,
                              const FrameLocation& f) {
  FrameMotionW m;
  if (f.body < 0) {
    m.X_WF = f.X_BF;
    return m;
  }
  const Pose& X_WB = data.X_WB[f.body];
  m.X_WF = X_WB * f.X_BF;
  const Vector6d& V = data.V[f.body];
  const Eigen::Vector3d r = f.X_BF.translation;
  const Eigen::Vector3d w = V.head<3>();
  const Eigen::Vector3d v = V.tail<3>() + w.cross(r);  // of the body's point at F's origin
  m.w = X_WB.rotation * w;
  m.v = X_WB.rotation * v;
  if (A != nullptr) {
    // A spatial acceleration is the rate of the velocity field at a fixed point; a point
    // moving with the body adds w x v.
    const Vector6d& a = (*A)[f.body];
    m.alpha = X_WB.rotation * a.head<3>();
    m.a = X_WB.rotation * (a.tail<3>() + a.head<3>().cross(r) + w.cross(v));
  }
  return m;
}

RelativeMotion CalcRelativeMotion(const FrameMotionW& B, const FrameMotionW& F) {
  RelativeMotion rel;
  const Eigen::Matrix3d R_BW = B.X_WF.rotation.transpose();
  const Eigen::Vector3d d = F.X_WF.translation - B.X_WF.translation;
  const Eigen::Vector3d d_dot = F.v - B.v;
  const Eigen::Vector3d dw = F.w - B.w;
  rel.R = R_BW * F.X_WF.rotation;
  rel.e = R_BW * d;
  // Rates seen from B, which turns with B.w: d/dt (R_BW x) = R_BW (x_dot - B.w x x).
  rel.e_dot = R_BW * (d_dot - B.w.cross(d));
  rel.e_ddot =
      R_BW * (F.a - B.a - B.alpha.cross(d) - 2.0 * B.w.cross(d_dot) + B.w.cross(B.w.cross(d)));
  rel.w = R_BW * dw;
  rel.w_dot = R_BW * (F.alpha - B.alpha - B.w.cross(dw));
  return rel;
}

void CalcLoopRows(const LoopConstraint& loop, const RelativeMotion& rel, double* phi, LoopRows* T,
                  double* phi_ddot) {
  if (T != nullptr) T->setZero(loop.num_rows, 6);
  int row = 0;
  // Translation rows: T picks e_dot (columns 3-5).
  auto translation = [&](const Eigen::Vector3d& n) {
    if (phi != nullptr) phi[row] = n.dot(rel.e);
    if (T != nullptr) T->row(row).tail<3>() = n.transpose();
    if (phi_ddot != nullptr) phi_ddot[row] = n.dot(rel.e_ddot);
    ++row;
  };
  switch (loop.kind) {
    case JointKind::kRevolute: {
      for (int k = 0; k < 3; ++k) translation(Eigen::Vector3d::Unit(k));
      // The axis seen from F, u = R a, must stay a: u moves at w x u, so
      // d/dt (n . u) = (u x n) . w.
      const Eigen::Vector3d u = rel.R * loop.axis;
      const Eigen::Vector3d u_dot = rel.w.cross(u);
      const Eigen::Vector3d u_ddot = rel.w_dot.cross(u) + rel.w.cross(u_dot);
      for (const Eigen::Vector3d* n : {&loop.n1, &loop.n2}) {
        if (phi != nullptr) phi[row] = n->dot(u);
        if (T != nullptr) T->row(row).head<3>() = u.cross(*n).transpose();
        if (phi_ddot != nullptr) phi_ddot[row] = n->dot(u_ddot);
        ++row;
      }
      break;
    }
    case JointKind::kPrismatic: {
      translation(loop.n1);
      translation(loop.n2);
      // Rotation locked: vee(R - R^T) / 2 = 0, whose rate is (tr(R) 1 - R) w / 2 (the rate of
      // R is [w]x R).
      const Eigen::Matrix3d& R = rel.R;
      const Eigen::Vector3d vee(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
      const Eigen::Matrix3d P = 0.5 * (R.trace() * Eigen::Matrix3d::Identity() - R);
      const Eigen::Matrix3d R_dot = Skew(rel.w) * R;
      const Eigen::Matrix3d P_dot = 0.5 * (R_dot.trace() * Eigen::Matrix3d::Identity() - R_dot);
      const Eigen::Vector3d ddot = P_dot * rel.w + P * rel.w_dot;
      for (int k = 0; k < 3; ++k) {
        if (phi != nullptr) phi[row] = 0.5 * vee[k];
        if (T != nullptr) T->row(row).head<3>() = P.row(k);
        if (phi_ddot != nullptr) phi_ddot[row] = ddot[k];
        ++row;
      }
      break;
    }
    case JointKind::kSpherical:
      for (int k = 0; k < 3; ++k) translation(Eigen::Vector3d::Unit(k));
      break;
    case JointKind::kFree:
    case JointKind::kBushing:
    case JointKind::kWeld:
      break;
  }
}

}  // namespace twinblocks::multibody
