// Mechanism, the positions and velocities stage: the tree's coordinates from the state, body
// poses, frame motions and the points where forces act.

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

void Mechanism::AssembleTreeCoordinates(const Context& c, Eigen::VectorXd* q,
                                        Eigen::VectorXd* v) const {
  const double* xs = x(c);
  for (const CoordinateState& s : free_q_states_) (*q)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : free_v_states_) (*v)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : filter_q_states_) (*q)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : filter_v_states_) (*v)[s.coordinate] = xs[s.state];
  for (int n : input_driven_joints_) {
    const MechanismJoint& j = m_.joints[n];
    const double* motion = in(c, j.in_actuation);
    (*q)[j.q_index] = motion[0];
    (*v)[j.v_index] = motion[1];
  }
}

Mechanism::PoseScratch::PoseScratch(const KinematicTree& tree)
    : q(Eigen::VectorXd::Zero(tree.nq())), v(Eigen::VectorXd::Zero(tree.nv())), data(tree) {}

std::unique_ptr<Mechanism::PoseScratch> Mechanism::MakePoseScratch() const {
  return std::make_unique<PoseScratch>(*m_.tree);
}

const std::vector<Pose>& Mechanism::CalcBodyPoses(const Context& c, PoseScratch* scratch) const {
  AssembleTreeCoordinates(c, &scratch->q, &scratch->v);
  ForwardKinematics(*m_.tree, &scratch->data, scratch->q);
  return scratch->data.X_WB;
}

void Mechanism::AssembleCoordinates(const Context& c, Workspace& ws) const {
  AssembleTreeCoordinates(c, &ws.q, &ws.v);
  const double* xs = x(c);
  // Drivetrain clusters: a joint's coordinate, or their own states.
  for (size_t c = 0; c < cluster_x_.size(); ++c) {
    if (cluster_joint_[c] >= 0) {
      const MechanismJoint& j = m_.joints[cluster_joint_[c]];
      ws.cluster_angle[c] = ws.q[j.q_index];
      ws.cluster_speed[c] = ws.v[j.v_index];
    } else {
      ws.cluster_angle[c] = xs[cluster_x_[c]];
      ws.cluster_speed[c] = xs[cluster_x_[c] + 1];
    }
  }
  ws.kinematics_valid = false;
  ws.dynamics_valid = false;
}

Eigen::Vector3d Mechanism::PointVelocity(const Workspace& ws, int body,
                                         const Eigen::Vector3d& p_W) const {
  if (body < 0) return Eigen::Vector3d::Zero();
  const Pose& X_WB = ws.data.X_WB[body];
  const Vector6d& V = ws.data.V[body];  // in B, at B's origin
  return X_WB.rotation * V.tail<3>() + (X_WB.rotation * V.head<3>()).cross(p_W - X_WB.translation);
}

void Mechanism::EnsureKinematics(Workspace& ws) const {
  if (ws.kinematics_valid) return;
  ws.kinematics_valid = true;
  if (ws.posed && ws.q == ws.q_posed && ws.v == ws.v_posed) return;
  ForwardKinematics(*m_.tree, &ws.data, ws.q, ws.v);
  ws.q_posed = ws.q;
  ws.v_posed = ws.v;
  ws.posed = cache_evaluations_;
  ws.contacts_current = false;
  ++ws.forces_generation;
}

void Mechanism::FrameMotion(const Workspace& ws, const FrameLocation& f, Pose* X_WF,
                            Eigen::Vector3d* w, Eigen::Vector3d* v) const {
  if (f.body < 0) {
    *X_WF = f.X_BF;
    w->setZero();
    v->setZero();
    return;
  }
  const Pose& X_WB = ws.data.X_WB[f.body];
  const Vector6d& V = ws.data.V[f.body];  // in B, at B's origin
  *X_WF = X_WB * f.X_BF;
  const Eigen::Vector3d w_B = V.head<3>();
  *w = X_WB.rotation * w_B;
  *v = X_WB.rotation * (V.tail<3>() + w_B.cross(f.X_BF.translation));
}

}  // namespace twinblocks::multibody
