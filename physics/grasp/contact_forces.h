#pragma once

// Contact forces that hold an object: the internal forces (those that do not move it), the
// minimum-norm forces that balance a wrench, and two linear programs over the linearized
// friction cones (friction_cone.h), solved with GLPK: the forces with the largest friction
// margin and those with the least squeeze.
//
// Throughout, f (m x 1) are the contact force components in G's column order
// (grasp_matrix.h) and w (6 x 1) is the external wrench on the object [force (N); torque
// about the reference point (N m)], world axes (e.g. gravity: [0; 0; -m g; 0; 0; 0] when the
// reference point is the centre of mass). Equilibrium is G f + w = 0.

#include <Eigen/Core>
#include <string>

#include "physics/grasp/grasp_input.h"

namespace twinblocks::grasp {

using Wrench = Eigen::Matrix<double, 6, 1>;

/// An orthonormal basis (m x (m - rank G)) of the null space of G: the internal forces, which
/// squeeze the object without moving it (G f_int = 0). Computed by the SVD of G, with the rank
/// the number of singular values above max(6, m) eps sigma_max. Empty (m x 0) when G has
/// full column rank.
/// @throws std::invalid_argument if G is not 6 x m with m >= 1, or not finite.
Eigen::MatrixXd CalcInternalForceBasis(const Eigen::MatrixXd& G);

/// The forces of least Euclidean norm that balance w: f = -G^+ w (G^+ the pseudo-inverse, by
/// complete orthogonal decomposition). They ignore friction: f_n may be negative and f_t may
/// leave the cone; any f + f_int (f_int internal) balances w as well.
struct MinNormForces {
  Eigen::VectorXd f;      ///< (m)
  double residual = 0.0;  ///< |G f + w| (N, N m mixed): > 0 when w is outside G's range
};

/// @throws std::invalid_argument if G is not 6 x m or G, w are not finite.
MinNormForces CalcMinNormForces(const Eigen::MatrixXd& G, const Wrench& w);

/// The outcome of a linear program over contact forces. Never an exception for an object that
/// cannot be held: feasible = false and `message` says why.
struct ContactForces {
  bool feasible = false;
  Eigen::VectorXd f;  ///< (m) the forces found (when feasible)
  /// The friction margin of f (CalcFrictionMargin): its smallest distance from a facet of a
  /// linearized cone (N; N m for a soft finger's torsional facets).
  double margin = 0.0;
  double total_normal_force = 0.0;  ///< sum of f_n over the contacts (N)
  std::string message;              ///< why not feasible; empty when feasible
};

/// The friction margin of f: min over contacts i and facets a of its cone (CalcConeFacets) of
/// a f_i, the distance of f_i from the facet's hyperplane. >= 0 iff every f_i lies in its
/// linearized cone.
/// @throws std::invalid_argument if f's size is not a multiple of the model's components.
double CalcFrictionMargin(const Eigen::VectorXd& f, ContactModel model, const FrictionCone& cone);

/// The forces balancing w with the largest friction margin, the LP
///   maximize d  over f, d   subject to  G f = -w,  a f_i >= d for every facet a of contact i,
///   f_n,i <= max_normal_force.
/// Without the bound the margin would grow with any squeeze; with it, d is the margin the
/// grasp can keep when no finger pushes harder than max_normal_force. Feasible when d >= 0
/// (to 1e-12 (1 + max_normal_force)).
/// @param max_normal_force  bound on each contact's normal force (N), finite and > 0.
/// @throws std::invalid_argument on bad sizes, values or cone (CheckFrictionCone).
ContactForces CalcLargestMarginForces(const Eigen::MatrixXd& G, ContactModel model,
                                      const FrictionCone& cone, const Wrench& w,
                                      double max_normal_force);

/// The forces balancing w with the smallest sum of normal forces inside the linearized cones,
/// the LP over the cones' generators E_i (CalcConeGenerators, each with f_n = 1):
///   minimize sum(lambda)  subject to  sum_i G_i E_i lambda_i = -w,  lambda >= 0,
/// then f_i = E_i lambda_i; sum(lambda) = sum(f_n). Every f_i is a nonnegative combination of
/// its cone's edges, so it lies in the cone exactly.
/// @throws std::invalid_argument on bad sizes, values or cone.
ContactForces CalcLeastSqueezeForces(const Eigen::MatrixXd& G, ContactModel model,
                                     const FrictionCone& cone, const Wrench& w);

}  // namespace twinblocks::grasp
