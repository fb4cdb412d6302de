#pragma once

// The grasp matrix G (Prattichizzo & Trinkle, Springer Handbook of Robotics, "Grasping"): the
// map from the contact force components f (m x 1) to the wrench they apply to the object,
// w_c = G f = [force (N); torque about the reference point (N m)], in world axes.

#include <Eigen/Core>
#include <vector>

#include "physics/grasp/grasp_input.h"

namespace twinblocks::grasp {

/// The orthonormal contact frame of an inward unit normal n: R_WC = [n t1 t2] (columns, world
/// axes), right-handed (t2 = n x t1). t1 is chosen deterministically: the world axis e_k with
/// the smallest |n_k| (the lowest k on a tie), projected onto the tangent plane and normalized:
/// t1 = (e_k - n_k n) / |e_k - n_k n|.
/// @pre n is a finite unit vector (CheckContacts).
Eigen::Matrix3d CalcContactFrame(const Eigen::Vector3d& n_W);

/// G and the frames it was built in.
struct GraspMatrix {
  /// (6 x m), m = nc NumContactComponents(model). Contact i owns columns [i c, (i + 1) c),
  /// c = NumContactComponents(model), in the order of its components f_n (N, along n, into
  /// the object), f_t1, f_t2 (N), m_n (N m, about n, soft finger only). With r_i = p_i - p_WO:
  ///   normal:   [n_i; r_i x n_i],  tangents: [t_ij; r_i x t_ij],  torsion: [0; n_i].
  Eigen::MatrixXd G;
  /// Per contact, R_WC = [n t1 t2] (CalcContactFrame).
  std::vector<Eigen::Matrix3d> R_WC;
  /// G's six singular values, largest first (zeros when m < 6). The units mix N and N m: they
  /// depend on the length unit through the torque rows.
  Eigen::Matrix<double, 6, 1> singular_values;
  /// The smallest, sigma_6: 0 when some object wrench cannot be produced by the contacts.
  double min_singular_value = 0.0;
};

/// The grasp matrix of nc contacts of one model.
/// @param p_W  contact points (3 x nc, m, world).
/// @param n_W  inward unit normals (3 x nc, world).
/// @param p_WO  reference point of the object (m, world): torques are taken about it.
/// @throws std::invalid_argument on bad contacts (CheckContacts).
GraspMatrix CalcGraspMatrix(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                            const Eigen::Vector3d& p_WO, ContactModel model);

}  // namespace twinblocks::grasp
