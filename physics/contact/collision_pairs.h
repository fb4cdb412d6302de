#pragma once

// The pair tests behind Collide, one family per file. Collide orders every pair (sphere first,
// plane last, see collision.cc), so each test takes its two shapes in one order only.

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <numbers>

#include "physics/contact/collision.h"

namespace twinblocks::contact::internal {

/// A cylinder's rim stands for its cap by this many points, evenly spaced, in the cap's
/// contact with a plane and as a face in clipping: enough for a standing cylinder to resist
/// tipping in every direction nearly as its full disc does.
inline constexpr int kRimPoints = 8;

/// (cos, sin) of the rim points' angles, 2 pi k / kRimPoints.
inline const std::array<Eigen::Vector2d, kRimPoints> kRimDirections = [] {
  std::array<Eigen::Vector2d, kRimPoints> d;
  for (int k = 0; k < kRimPoints; ++k) {
    const double angle = 2.0 * std::numbers::pi * k / kRimPoints;
    d[k] = {std::cos(angle), std::sin(angle)};
  }
  return d;
}();

/// Faces and edges within this angle's sine (about 3 degrees) of parallel rest on each other
/// and touch along a line or a patch: the pair then gets several contact points. Below the
/// angle the contact is taken as flat, which is what makes a box settle on a face instead of
/// rocking on a single corner point.
inline constexpr double kParallelSine = 0.05;

/// A pair's answer from its signed distance, normal (a towards b) and witness points; when
/// they overlap, one contact point midway between the witnesses.
PairGeometry SinglePointGeometry(double distance, const Eigen::Vector3d& normal,
                                 const Eigen::Vector3d& point_a, const Eigen::Vector3d& point_b);

/// Sphere a against any shape b (collision_sphere.cc): closed forms.
PairGeometry CollideSphere(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                           const multibody::Pose& X_Wb);

/// Box, cylinder, capsule or convex mesh a against plane b (collision_plane.cc): closed
/// forms, with the points of a below the plane as the contact points.
PairGeometry CollidePlane(const Shape& a, const multibody::Pose& X_Wa, const multibody::Pose& X_Wb);

/// Capsule against capsule (collision_capsule.cc): closest points of the two segments.
PairGeometry CollideCapsules(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                             const multibody::Pose& X_Wb);

/// Two of box, cylinder, capsule and convex mesh, not both capsules (collision_convex.cc):
/// GJK/EPA, then the contact points from the shapes' features along the normal.
PairGeometry CollideConvex(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                           const multibody::Pose& X_Wb);

}  // namespace twinblocks::contact::internal
