#pragma once

// Signed distance of two convex shapes that have no closed form: GJK (Gilbert, Johnson and
// Keerthi 1988) through FCL for separated shapes, EPA (van den Bergen 2001) through libccd for
// overlapping ones. No FCL or libccd type leaves gjk_distance.cc.

#include <Eigen/Core>

#include "physics/contact/collision.h"

namespace twinblocks::contact::internal {

/// The signed distance of two shapes, its normal (unit, from a towards b) and witness points,
/// all in W, with the conventions of PairGeometry.
struct SignedDistance {
  double distance = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d point_a = Eigen::Vector3d::Zero();
  Eigen::Vector3d point_b = Eigen::Vector3d::Zero();
};

/// For a and b each a box, cylinder, capsule or convex mesh. Allocates nothing when the
/// shapes are apart; when they overlap, libccd's EPA allocates its polytope (every vertex,
/// edge and face with malloc) and frees it before returning.
SignedDistance GjkSignedDistance(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                                 const multibody::Pose& X_Wb);

}  // namespace twinblocks::contact::internal
