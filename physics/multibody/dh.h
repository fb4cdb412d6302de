#pragma once

// Serial arms from Denavit-Hartenberg tables. All joints are revolute about z of their DH
// frame; q_i = 0 is the DH zero (theta_i = theta_offset_i).

#include <Eigen/Core>
#include <vector>

#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// One row of a DH table plus the inertia of the link it moves. In a modified (Craig) table
/// alpha and a are alpha_{i-1}, a_{i-1}; in a standard table they are alpha_i, a_i.
struct DhLink {
  double alpha = 0.0;         ///< twist (rad)
  double a = 0.0;             ///< length (m)
  double d = 0.0;             ///< offset along z_i (modified) or z_{i-1} (standard) (m)
  double theta_offset = 0.0;  ///< theta_i = q_i + theta_offset (rad)
  double mass = 0.0;          ///< link mass (kg)
  Eigen::Vector3d com = Eigen::Vector3d::Zero();          ///< centre of mass in DH frame i (m)
  Eigen::Matrix3d inertia_com = Eigen::Matrix3d::Zero();  ///< about the CoM, axes of frame i
                                                          ///< (kg m^2)
};

/// T(i-1 -> i) of a modified DH row: Rx(alpha_{i-1}) Dx(a_{i-1}) Rz(theta_i) Dz(d_i).
Pose ModifiedDhTransform(double alpha, double a, double theta, double d);

/// T(i-1 -> i) of a standard DH row: Rz(theta_i) Dz(d_i) Dx(a_i) Rx(alpha_i).
Pose StandardDhTransform(double alpha, double a, double theta, double d);

/// A serial chain from a modified (Craig) DH table: body i's frame is DH frame i, frame 0 is
/// the world. Body i is the link moved by joint i.
/// @param gravity_W  gravity in frame 0 (m/s^2).
KinematicTree BuildModifiedDhTree(const std::vector<DhLink>& links,
                                  const Eigen::Vector3d& gravity_W);

/// A serial chain from a standard DH table. Joint i turns about z_{i-1}, so body i's frame is
/// frame i-1 turned by theta_i; DH frame i is fixed in it at Dz(d_i) Dx(a_i) Rx(alpha_i), and
/// the inertia given in frame i is re-expressed in the body frame.
KinematicTree BuildStandardDhTree(const std::vector<DhLink>& links,
                                  const Eigen::Vector3d& gravity_W);

}  // namespace twinblocks::multibody
