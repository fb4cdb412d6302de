#pragma once

// The linearized friction cone of one contact in its two descriptions (they give the same
// polyhedral cone): its generators (the edges, nonnegative combinations of which are the
// admissible contact forces) and its facets (inequalities A f >= 0); and the primitive
// wrenches of a grasp, the edges mapped through G, from which the grasp's quality is built.

#include <Eigen/Core>
#include <vector>

#include "physics/grasp/grasp_input.h"

namespace twinblocks::grasp {

/// The generators of one contact's linearized cone in its own components (rows: f_n, f_t1,
/// f_t2, m_n as the model has them; c x g). Each generator has f_n = 1:
///   point without friction: [1] (g = 1);
///   hard finger: [1; mu cos(theta_j); mu sin(theta_j)], theta_j = 2 pi j / k (g = k; g = 1
///     when mu = 0, the k edges then being one);
///   soft finger: each hard-finger edge with m_n = +torsional_mu and -torsional_mu (g = 2k;
///     g = k when torsional_mu = 0).
/// @throws std::invalid_argument on a bad cone (CheckFrictionCone).
Eigen::MatrixXd CalcConeGenerators(ContactModel model, const FrictionCone& cone);

/// The facets of one contact's linearized cone: rows a (unit length, c components each) with
/// a f >= 0 for every admissible f, and a f = distance of f from the facet's hyperplane (in the
/// units of f, N and N m mixed for a soft finger). Rows: f_n >= 0; for a hard or soft finger
/// the k facets mu cos(pi/k) f_n - cos(phi_j) f_t1 - sin(phi_j) f_t2 >= 0, phi_j =
/// (2j + 1) pi / k, each through two neighbouring edges; for a soft finger also
/// torsional_mu f_n -+ m_n >= 0.
/// @throws std::invalid_argument on a bad cone (CheckFrictionCone).
Eigen::MatrixXd CalcConeFacets(ContactModel model, const FrictionCone& cone);

/// The primitive wrenches of a grasp: for every contact i and every generator e of its cone,
/// the wrench G_i e (the contact's columns of G applied to the generator: unit normal force),
/// with the torque rows divided by `torque_length` (m) so that all six components are forces
/// (N). Columns are grouped by contact, contact 0 first.
/// @param contact_of  if not null, set to the contact of each column.
/// @throws std::invalid_argument on bad contacts or cone, or torque_length not finite and > 0.
Eigen::MatrixXd CalcPrimitiveWrenches(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                                      const Eigen::Vector3d& p_WO, ContactModel model,
                                      const FrictionCone& cone, double torque_length,
                                      std::vector<int>* contact_of = nullptr);

/// The number of generators of one contact's cone, g (the columns of CalcConeGenerators): 1
/// for a point without friction or mu = 0 (hard finger), k for a hard finger, 2k for a soft
/// finger with torsional friction (k without).
/// @throws std::invalid_argument on a bad cone (CheckFrictionCone).
int NumConeGenerators(ContactModel model, const FrictionCone& cone);

/// CalcPrimitiveWrenches into the first nc g columns of W, without touching the heap once W
/// exists (for simulation loops; CalcPrimitiveWrenches is this into a new matrix).
/// @param W  (6 x N), N >= nc g; the columns after the first nc g are left as they are.
/// @returns nc g, the number of columns written.
/// @throws std::invalid_argument as CalcPrimitiveWrenches, or if W has fewer than nc g
///         columns.
int FillPrimitiveWrenches(const Eigen::Ref<const Eigen::Matrix3Xd>& p_W,
                          const Eigen::Ref<const Eigen::Matrix3Xd>& n_W,
                          const Eigen::Vector3d& p_WO, ContactModel model, const FrictionCone& cone,
                          double torque_length,
                          Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> W);

}  // namespace twinblocks::grasp
