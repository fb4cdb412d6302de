#pragma once

// The geometric Jacobian of a frame on a KinematicTree, the way robotics toolboxes report it
// (MATLAB's geometricJacobian, Pinocchio's LOCAL_WORLD_ALIGNED frame Jacobian): it maps the
// generalized velocities to the frame's angular velocity and the velocity of its origin, both
// in world axes, because that is what task-space controllers and differential IK compare with
// targets given in the world.

#include <Eigen/Core>

#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// The geometric Jacobian J (6 x nv) of frame F, fixed in `body` at X_BF:
/// [w_WF_W; v_WFo_W] = J v, rows 0-2 the angular velocity of F in W, rows 3-5 the velocity
/// of F's origin in W (m/s), both expressed in W. Columns of joints that are not ancestors of
/// `body` are zero.
///
/// Built from each ancestor joint's motion subspace S (body-frame columns), so it holds for
/// any joint type whose S is constant in the body frame (revolute, prismatic, and spherical
/// and free joints with body-frame velocities). For such joints the columns map v, not qdot.
///
/// @param data  after ForwardKinematics(tree, &data, q) (reads data.X_WB only).
/// @param body  the body F is fixed in; -1 (the world) gives J = 0.
/// @param X_BF  the pose of F in the body's frame (the world's for body = -1).
/// @param J  output (6 x nv); written in place, nothing allocates.
/// @throws std::logic_error if J is not 6 x nv or body is not in [-1, num_bodies).
void FrameJacobian(const KinematicTree& tree, const KinematicTreeData& data, int body,
                   const Pose& X_BF, Eigen::Ref<Eigen::MatrixXd> J);

/// Adds `scale` times the translational rows of body's frame Jacobian at the world point p_W
/// to J (3 x nv): J += scale d(v of the body point at p_W, in W)/dv. A contact's relative
/// point velocity is this once for each body, with scale +1 and -1; the ancestors' columns
/// only are touched, nothing allocates.
/// @param data  after ForwardKinematics (reads data.X_WB only).
/// @param body  the body the point moves with; -1 (the world) adds nothing.
/// @throws std::logic_error if J is not 3 x nv or body is not in [-1, num_bodies).
void AddPointJacobian(const KinematicTree& tree, const KinematicTreeData& data, int body,
                      const Eigen::Vector3d& p_W, double scale, Eigen::Ref<Eigen::MatrixXd> J);

}  // namespace twinblocks::multibody
