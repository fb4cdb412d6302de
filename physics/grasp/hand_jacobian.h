#pragma once

// The hand Jacobian J_h (Prattichizzo & Trinkle, Springer Handbook of Robotics, "Grasping"):
// the map from the hand's generalized velocities v to the velocities of its contact points,
// in each contact's frame, the components a contact of the model transmits. It is the dual of
// G: the joint torques that the contact forces f load the hand with are J_h^T f.

#include <Eigen/Core>
#include <vector>

#include "physics/grasp/grasp_input.h"
#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::grasp {

/// One contact on the hand.
struct HandContact {
  int body = -1;  ///< the tree's body the contact point moves with (-1: the world)
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();  ///< the contact point at q (m, world)
  /// The contact frame [n t1 t2] (world axes; e.g. GraspMatrix::R_WC), n into the object.
  Eigen::Matrix3d R_WC = Eigen::Matrix3d::Identity();
};

/// J_h (nc c x nv), c = NumContactComponents(model). The rows of contact i are
///   [n^T; t1^T; t2^T] J_v,i   (the first row only for a point without friction)
/// and, for a soft finger, n^T J_w,i: with J_v,i (3 x nv) the Jacobian of the velocity of the
/// hand's point at p_i (fixed in body i) and J_w,i that of the body's angular velocity, both in
/// world axes, from multibody::FrameJacobian. The rows therefore follow the order of G's
/// columns, and J_h^T f are the joint forces that hold the contact forces f.
/// @param q  the hand's configuration (nq x 1).
/// @param J_h  output, resized to (nc c x nv).
/// @throws std::invalid_argument if q is not nq long or not finite, a body index is out of
///         range, a point is not finite or R_WC is not orthonormal (to 1e-6).
void CalcHandJacobian(const multibody::KinematicTree& tree, const Eigen::VectorXd& q,
                      const std::vector<HandContact>& contacts, ContactModel model,
                      Eigen::MatrixXd* J_h);

/// Yoshikawa's manipulability of a Jacobian J (rows x cols).
struct Manipulability {
  /// sqrt(det(J J^T)) = the product of J's singular values when J has full row rank (rank =
  /// rows); otherwise, that being 0, the product of the nonzero singular values (those above
  /// max(rows, cols) eps sigma_max): the volume of the velocity ellipsoid in the subspace it
  /// spans. `full_row_rank` says which.
  double value = 0.0;
  int rank = 0;
  bool full_row_rank = false;
  Eigen::VectorXd singular_values;  ///< min(rows, cols), largest first
};

/// The manipulability of J (e.g. J_h).
/// @throws std::invalid_argument if J is empty or not finite.
Manipulability CalcManipulability(const Eigen::MatrixXd& J);

}  // namespace twinblocks::grasp
