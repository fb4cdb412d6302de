#pragma once

// Stick-slip friction with an anchor (Zaidi et al. 2020, "Grasp Planning Pipeline for Robust
// Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems", eq. 9-10):
// while a contact sticks, a tangential spring and damper pull the contact point P_c back to
// the point P_s where sticking began; when that force would exceed mu f_n the contact slides,
// the force is mu f_n against the sliding velocity, and the anchor is dragged along so that it
// trails P_c by mu f_n / k_t. When the contact breaks the anchor is released.
//
// Eq. 10 is printed as -(k_t v - c_t v') along P_c P_s; repaired: (k_t v + c_t v') along
// P_c -> P_s, v = |P_c - P_s| in the tangent plane. Sliding, the force is mu f_n along that
// same spring-damper force (its magnitude capped) rather than eq. 9's -V_t / |V_t|: the same
// in steady sliding, and continuous at the switch, where eq. 9's direction jumps. The anchor is the contact's memory: a
// caller keeps it (a state of the run) and moves it with UpdateAnchor after each accepted step.

#include <Eigen/Core>

namespace twinblocks::contact {

struct AnchoredFrictionParams {
  double stiffness = 1e4;  ///< k_t, N/m
  double damping = 1.0;    ///< c_t, N s/m
  double mu = 0.5;         ///< Coulomb coefficient
};

struct AnchoredFriction {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();  ///< on the body at P_c (N), tangential
  bool sliding = false;
};

/// The friction force at contact point `p` moving at `v` (world), unit normal `n`, normal
/// force `f_n` >= 0 (N), with the anchor at `anchor` (world). No force when f_n <= 0.
AnchoredFriction CalcAnchoredFriction(const AnchoredFrictionParams& params,
                                      const Eigen::Vector3d& p, const Eigen::Vector3d& v,
                                      const Eigen::Vector3d& n, double f_n,
                                      const Eigen::Vector3d& anchor);

/// The anchor after an accepted step at (p, v, n, f_n): the contact point itself when the
/// contact is open (f_n <= 0); unchanged while sticking; while sliding, on the line from p to
/// the anchor (in the tangent plane) at mu f_n / k_t from p.
Eigen::Vector3d UpdateAnchor(const AnchoredFrictionParams& params, const Eigen::Vector3d& p,
                             const Eigen::Vector3d& v, const Eigen::Vector3d& n, double f_n,
                             const Eigen::Vector3d& anchor);

}  // namespace twinblocks::contact
