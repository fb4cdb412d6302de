#pragma once

// A deformable body's surface node against a rigid Solid: the Hertz-type normal force and the
// anchored stick-slip friction of Zaidi et al. 2020, "Grasp Planning Pipeline for Robust
// Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems"
// (eq. 4-10), with the force's derivatives for an implicit solver.

#include <Eigen/Core>

#include "physics/contact/anchored_friction.h"
#include "physics/contact/collision.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::deformable {

/// The law of one node-Solid pair.
struct NodeContactLaw {
  double stiffness = 0.0;  ///< K = 2 Psi sqrt(R), N/m^1.5 (contact::HertzStiffness, eq. 6-7)
  double damping = 0.0;    ///< C = 4 pi R gamma, N s/m (contact::HertzDamping, eq. 8)
  double exponent = 1.5;   ///< n of eq. 4
  contact::AnchoredFrictionParams friction;  ///< k_t, c_t, mu of eq. 9-10
};

/// The Solid's motion: its pose and the velocity of its origin and its angular velocity, in W.
struct SolidMotion {
  multibody::Pose X_WS;
  Eigen::Vector3d v_WSo = Eigen::Vector3d::Zero();
  Eigen::Vector3d w_WS = Eigen::Vector3d::Zero();
};

/// What the pair gives at one instant.
struct NodeContact {
  bool touching = false;
  double depth = 0.0;         ///< delta > 0 (m): how far the node is inside the Solid
  double depth_rate = 0.0;    ///< delta' (m/s)
  double normal_force = 0.0;  ///< f_n = max(0, K delta^n + C delta') (N), eq. 4
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();        ///< W, out of the Solid, onto the node
  Eigen::Vector3d force = Eigen::Vector3d::Zero();          ///< on the node (W, N); the Solid gets
                                                            ///< its opposite at the node
  Eigen::Vector3d slip_velocity = Eigen::Vector3d::Zero();  ///< node relative to the Solid, W
  bool sliding = false;
  /// d force / d node position and d force / d node velocity (W), the Solid held: the normal
  /// law's slopes along the normal and (on a sphere) with the normal's turning, the tangential
  /// spring and damper while sticking (their turning with the normal left out), and while
  /// sliding the secant mu f_n / |V_t| of the sliding force across the slip (as a mechanism's
  /// friction is linearized, docs/simulation.md: an implicit step slows the slip but never
  /// reverses it).
  Eigen::Matrix3d dforce_dposition = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d dforce_dvelocity = Eigen::Matrix3d::Zero();
};

/// The node at `p` moving at `v` (W) against `shape` moving as `solid`, with its friction
/// anchor at `anchor_S` (in the Solid's frame: a sticking node is held to the point of the
/// Solid where it began to stick, wherever the Solid moves). Open (no force) when the node is
/// outside the Solid or the normal law gives a pull.
NodeContact CalcNodeContact(const NodeContactLaw& law, const contact::Shape& shape,
                            const SolidMotion& solid, const Eigen::Vector3d& p,
                            const Eigen::Vector3d& v, const Eigen::Vector3d& anchor_S);

/// The anchor (Solid frame) after an accepted step that ended with `c` at node position `p`:
/// the node's own place when the contact is open; unchanged while it sticks; dragged to trail
/// the node by mu f_n / k_t while it slides (contact::UpdateAnchor).
Eigen::Vector3d UpdateNodeAnchor(const NodeContactLaw& law, const SolidMotion& solid,
                                 const NodeContact& c, const Eigen::Vector3d& p,
                                 const Eigen::Vector3d& anchor_S);

}  // namespace twinblocks::deformable
