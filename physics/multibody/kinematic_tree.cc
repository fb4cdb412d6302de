#include "physics/multibody/kinematic_tree.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace twinblocks::multibody {
namespace {

Eigen::Vector3d UnitAxis(const Eigen::Vector3d& axis, const char* what) {
  const double norm = axis.norm();
  if (!std::isfinite(norm) || norm < 1e-12) {
    throw std::invalid_argument(std::string(what) + ": the joint axis must be a non-zero vector");
  }
  return axis / norm;
}

// k when axis is exactly +-e_k, otherwise -1.
int CoordinateAxisIndex(const Eigen::Vector3d& axis) {
  for (int k = 0; k < 3; ++k) {
    if (std::abs(axis[k]) == 1.0 && axis[(k + 1) % 3] == 0.0 && axis[(k + 2) % 3] == 0.0) {
      return k;
    }
  }
  return -1;
}

// The rotation of a quaternion [w, x, y, z] that need not be of unit length.
Eigen::Matrix3d QuaternionRotation(const double* q) {
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
}

}  // namespace

Joint::Joint(JointType type, const Eigen::Vector3d& axis_J) : type_(type), axis_(axis_J) {
  axis_index_ = -1;
  switch (type) {
    case JointType::kRevolute:
      S_.setZero(6, 1);
      S_.col(0).head<3>() = axis_J;
      axis_index_ = CoordinateAxisIndex(axis_J);
      break;
    case JointType::kPrismatic:
      S_.setZero(6, 1);
      S_.col(0).tail<3>() = axis_J;
      axis_index_ = CoordinateAxisIndex(axis_J);
      break;
    case JointType::kSpherical:
      nq_ = 4;
      nv_ = 3;
      S_.setZero(6, 3);
      S_.topRows<3>().setIdentity();
      break;
    case JointType::kFree:
      nq_ = 7;
      nv_ = 6;
      S_.setIdentity(6, 6);
      break;
  }
}

Joint Joint::Revolute(const Eigen::Vector3d& axis_J) {
  return Joint(JointType::kRevolute, UnitAxis(axis_J, "Joint::Revolute"));
}

Joint Joint::Prismatic(const Eigen::Vector3d& axis_J) {
  return Joint(JointType::kPrismatic, UnitAxis(axis_J, "Joint::Prismatic"));
}

Joint Joint::Spherical() { return Joint(JointType::kSpherical, Eigen::Vector3d::Zero()); }

Joint Joint::Free() { return Joint(JointType::kFree, Eigen::Vector3d::Zero()); }

Pose Joint::CalcJointPose(const Eigen::Ref<const Eigen::VectorXd>& q) const {
  switch (type_) {
    case JointType::kRevolute:
      return {Eigen::AngleAxisd(q[0], axis_).toRotationMatrix(), Eigen::Vector3d::Zero()};
    case JointType::kPrismatic:
      return {Eigen::Matrix3d::Identity(), q[0] * axis_};
    case JointType::kSpherical:
      return {QuaternionRotation(q.data()), Eigen::Vector3d::Zero()};
    case JointType::kFree:
      return {QuaternionRotation(q.data() + 3), q.head<3>()};
  }
  return {};
}

KinematicTree::KinematicTree(std::vector<BodySpec> bodies, const Eigen::Vector3d& gravity_W)
    : bodies_(std::move(bodies)), gravity_W_(gravity_W) {
  if (!gravity_W_.allFinite()) throw std::invalid_argument("KinematicTree: gravity not finite");
  idx_q_.reserve(bodies_.size());
  idx_v_.reserve(bodies_.size());
  for (int i = 0; i < num_bodies(); ++i) {
    const BodySpec& b = bodies_[i];
    const std::string who = "KinematicTree: body " + std::to_string(i) + " '" + b.name + "'";
    if (b.parent < -1 || b.parent >= i) {
      throw std::invalid_argument(who + ": parent " + std::to_string(b.parent) +
                                  " must be -1 (world) or the index of an earlier body");
    }
    const SpatialInertia& I = b.inertia;
    if (!(I.mass() >= 0.0) || !std::isfinite(I.mass()) || !I.com().allFinite() ||
        !I.inertia_com().allFinite()) {
      throw std::invalid_argument(who + ": mass must be >= 0 and the inertia finite");
    }
    if (!b.X_PJ.rotation.allFinite() || !b.X_PJ.translation.allFinite()) {
      throw std::invalid_argument(who + ": X_PJ not finite");
    }
    if (!(b.armature >= 0.0) || !std::isfinite(b.armature)) {
      throw std::invalid_argument(who + ": armature must be >= 0 and finite");
    }
    inertia_matrices_.push_back(I.Matrix());
    idx_q_.push_back(nq_);
    idx_v_.push_back(nv_);
    nq_ += b.joint.nq();
    nv_ += b.joint.nv();
  }
  armature_.resize(nv_);
  for (int i = 0; i < num_bodies(); ++i) {
    armature_.segment(idx_v_[i], bodies_[i].joint.nv()).setConstant(bodies_[i].armature);
  }
}

KinematicTreeData::KinematicTreeData(const KinematicTree& tree) {
  const int n = tree.num_bodies();
  X_PB.resize(n);
  posed_q.setZero(tree.nq());
  X_WB.resize(n);
  V.assign(n, Vector6d::Zero());
  A.assign(n, Vector6d::Zero());
  F.assign(n, Vector6d::Zero());
  I_C.assign(n, Matrix6d::Zero());
  I_A.assign(n, Matrix6d::Zero());
  p_A.assign(n, Vector6d::Zero());
  c.assign(n, Vector6d::Zero());
  U.resize(n);
  D_inv.resize(n);
  u.resize(n);
  driven.assign(n, 0);
  drives_free.assign(n, 0);
  free_D.assign(n, Matrix6d::Constant(std::numeric_limits<double>::quiet_NaN()));
  free_D_inv.assign(n, Matrix6d::Zero());
  for (int i = 0; i < n; ++i) {
    const int nv_i = tree.joint(i).nv();
    U[i].setZero(6, nv_i);
    D_inv[i].setZero(nv_i, nv_i);
    u[i].setZero(nv_i);
  }
  tau.setZero(tree.nv());
  M.setZero(tree.nv(), tree.nv());
  qdd.setZero(tree.nv());
}

}  // namespace twinblocks::multibody
