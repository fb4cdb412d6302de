#pragma once

// What every grasp analysis takes: the contact model, the linearized friction cone, the limits
// that bound every analysis's memory and time, and the checks of the contacts themselves.
// A grasp is nc contacts on one rigid object: contact points p_W (3 x nc, m, world), inward
// unit normals n_W (3 x nc, pointing into the object) and the object's reference point p_WO
// (m, world; its centre), about which wrench torques are taken.

#include <Eigen/Core>

#include "physics/spatial/spatial.h"

namespace twinblocks::grasp {

/// The contact models of Prattichizzo & Trinkle (Springer Handbook of Robotics, "Grasping"):
/// which components of force and moment a contact transmits to the object.
enum class ContactModel {
  kPointWithoutFriction,  ///< the normal force f_n only (1 component)
  kHardFinger,            ///< point contact with friction: f_n, f_t1, f_t2 (3 components)
  kSoftFinger,            ///< hard finger plus the torsional moment m_n about the normal (4)
};

/// The components one contact of `model` transmits: 1, 3 or 4.
int NumContactComponents(ContactModel model);

/// The most contacts an analysis takes. The L1 hull already has up to 2 k nc points in 6-D.
inline constexpr int kMaxContacts = 64;
/// The most edges of one linearized friction cone.
inline constexpr int kMaxConeEdges = 64;
/// How far |n| may be from 1 (a normal is a unit vector, not a direction to normalize).
inline constexpr double kUnitNormalTolerance = 1e-6;

/// The friction of every contact, linearized: the cone |f_t| <= mu f_n is replaced by the
/// pyramid with `edges` edges n + mu (cos(theta_j) t1 + sin(theta_j) t2), theta_j = 2 pi j / k,
/// inscribed in it (every force of the pyramid obeys Coulomb's law). A soft finger also obeys
/// |m_n| <= torsional_mu f_n (the linear soft-finger model: the two limits independent).
struct FrictionCone {
  double mu = 0.5;            ///< Coulomb coefficient (1), >= 0
  double torsional_mu = 0.0;  ///< soft finger's torsional coefficient (m), >= 0
  int edges = 8;              ///< k, in [3, kMaxConeEdges]
};

/// Checks a grasp's contacts.
/// @param p_W  contact points (3 x nc, m, world).
/// @param n_W  inward unit normals (3 x nc, world).
/// @param p_WO  the object's reference point (m, world).
/// @throws std::invalid_argument (one line naming the contact and what was expected) if
///         nc < 2 or nc > kMaxContacts, the sizes differ, a value is not finite, or a normal's
///         length differs from 1 by more than kUnitNormalTolerance.
void CheckContacts(const Eigen::Ref<const Eigen::Matrix3Xd>& p_W,
                   const Eigen::Ref<const Eigen::Matrix3Xd>& n_W, const Eigen::Vector3d& p_WO);

/// Checks a friction cone: mu and torsional_mu finite and >= 0, edges in [3, kMaxConeEdges].
/// @throws std::invalid_argument naming the value and its valid range.
void CheckFrictionCone(const FrictionCone& cone);

/// Checks that each contact lies on the sphere of centre p_WS (m, world) and radius r (m):
/// | |p_i - p_WS| - r | <= tolerance (m).
/// @throws std::invalid_argument naming the first contact off the surface and its distance.
void CheckContactsOnSphere(const Eigen::Matrix3Xd& p_W, const Eigen::Vector3d& p_WS, double r,
                           double tolerance);

/// Checks that each contact lies on the surface of the box with pose X_WB and half extents
/// (m, in B): its distance from the surface (outside or inside) is at most tolerance (m).
/// @throws std::invalid_argument naming the first contact off the surface and its distance.
void CheckContactsOnBox(const Eigen::Matrix3Xd& p_W, const multibody::Pose& X_WB,
                        const Eigen::Vector3d& half_extents, double tolerance);

/// Checks that each contact lies on the surface of the solid cylinder with pose X_WC (its axis
/// along z_C, its centre at mid-height), radius r and height h (m): its distance from the side
/// or the flat ends (outside or inside) is at most tolerance (m).
/// @throws std::invalid_argument naming the first contact off the surface and its distance.
void CheckContactsOnCylinder(const Eigen::Matrix3Xd& p_W, const multibody::Pose& X_WC, double r,
                             double h, double tolerance);

}  // namespace twinblocks::grasp
