#pragma once

// Support points: the point of a convex shape farthest along a direction, the one query GJK
// and EPA make of a shape, and what a pair's extent along a normal is measured with.

#include <Eigen/Core>

#include "physics/contact/collision.h"

namespace twinblocks::contact::internal {

/// The point (in S) of a box, cylinder, capsule or convex mesh farthest along u (in S, any
/// length). Ties go to a vertex of the shape (a box corner, a rim point), so that EPA's
/// polytope does not get degenerate faces.
Eigen::Vector3d SupportInShape(const Shape& s, const Eigen::Vector3d& u);

/// The same for the shape at X_WS, direction and point in W.
inline Eigen::Vector3d SupportPoint(const Shape& s, const multibody::Pose& X_WS,
                                    const Eigen::Vector3d& d) {
  return X_WS.TransformPoint(SupportInShape(s, X_WS.rotation.transpose() * d));
}

/// How far two shapes overlap along the unit direction n (from a towards b): the extent of a
/// along n beyond the near end of b. Every direction's overlap bounds the penetration depth
/// from above; the least of them is the depth.
inline double OverlapAlong(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                           const multibody::Pose& X_Wb, const Eigen::Vector3d& n) {
  return n.dot(SupportPoint(a, X_Wa, n) - SupportPoint(b, X_Wb, -n));
}

}  // namespace twinblocks::contact::internal
