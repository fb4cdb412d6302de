// Box, cylinder, capsule and convex mesh against a plane, in closed form. A convex shape's
// lowest point over the plane is the minimum over a finite set of candidate points: a box's
// corners, a mesh's vertices, each capsule end's lowest point, and on each cylinder cap the
// rim point straight below its centre. The candidates below the plane are the contact points;
// extra ones on the cylinder rims make a standing cylinder rest on several points (as MuJoCo's
// plane-cylinder test does), so that the contact carries a tipping moment.

#include <array>
#include <cmath>

#include "physics/contact/collision_pairs.h"
#include "physics/contact/collision_points.h"

namespace twinblocks::contact::internal {

using multibody::Pose;

namespace {

// The geometry from n points x(i) (W) of shape a: the pair's distance is their lowest height
// over the plane (P's origin p, unit normal up in W), the normal points down into the plane
// (from a towards the plane), and each point below the plane is a candidate contact point,
// midway between it and its projection onto the plane.
template <typename PointAt>
PairGeometry FromLowestPoints(int n, const PointAt& x, const Eigen::Vector3d& up,
                              const Eigen::Vector3d& p) {
  int lowest = 0;
  double min_height = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double height = up.dot(x(i) - p);
    if (height < min_height) {
      min_height = height;
      lowest = i;
    }
  }
  PairGeometry g;
  g.distance = min_height;
  g.normal = -up;
  g.point_a = x(lowest);
  g.point_b = g.point_a - min_height * up;
  if (min_height < 0.0) {
    SelectContactPoints(
        n,
        [&](int i) {
          const Eigen::Vector3d xi = x(i);
          const double height = up.dot(xi - p);
          return ContactPoint{xi - 0.5 * height * up, -height};
        },
        &g);
  }
  return g;
}

// Candidate points of a shape held in a small fixed array.
template <size_t N>
PairGeometry FromLowestPoints(const std::array<Eigen::Vector3d, N>& x, const Eigen::Vector3d& up,
                              const Eigen::Vector3d& p) {
  return FromLowestPoints(
      static_cast<int>(N), [&x](int i) -> const Eigen::Vector3d& { return x[i]; }, up, p);
}

PairGeometry BoxPlane(const Shape& box, const Pose& X_WA, const Eigen::Vector3d& up,
                      const Eigen::Vector3d& p) {
  std::array<Eigen::Vector3d, 8> corners;
  for (int i = 0; i < 8; ++i) {
    const Eigen::Vector3d corner_A(i & 1 ? 0.5 * box.size.x() : -0.5 * box.size.x(),
                                   i & 2 ? 0.5 * box.size.y() : -0.5 * box.size.y(),
                                   i & 4 ? 0.5 * box.size.z() : -0.5 * box.size.z());
    corners[i] = X_WA.TransformPoint(corner_A);
  }
  return FromLowestPoints(corners, up, p);
}

// Each cap's rim, starting from its lowest point c - r w, where w is `up` projected onto the
// cap's plane (for a cylinder standing upright every rim point is lowest: start on its x axis).
PairGeometry CylinderPlane(const Shape& cylinder, const Pose& X_WA, const Eigen::Vector3d& up,
                           const Eigen::Vector3d& p) {
  const Eigen::Vector3d axis = X_WA.rotation.col(2);
  const Eigen::Vector3d tilt = up - up.dot(axis) * axis;
  const double tilt_norm = tilt.norm();
  const Eigen::Vector3d w =
      tilt_norm > 1e-12 ? Eigen::Vector3d(tilt / tilt_norm) : Eigen::Vector3d(X_WA.rotation.col(0));
  const Eigen::Vector3d v = axis.cross(w);
  std::array<Eigen::Vector3d, 2 * kRimPoints> rim;
  for (int cap = 0; cap < 2; ++cap) {
    const Eigen::Vector3d centre =
        X_WA.translation + (cap == 0 ? -0.5 : 0.5) * cylinder.length * axis;
    for (int k = 0; k < kRimPoints; ++k) {
      const Eigen::Vector2d& c = kRimDirections[k];
      rim[cap * kRimPoints + k] = centre - cylinder.radius * (c.x() * w + c.y() * v);
    }
  }
  return FromLowestPoints(rim, up, p);
}

// Each end sphere's lowest point.
PairGeometry CapsulePlane(const Shape& capsule, const Pose& X_WA, const Eigen::Vector3d& up,
                          const Eigen::Vector3d& p) {
  const Eigen::Vector3d half_axis = 0.5 * capsule.length * X_WA.rotation.col(2);
  const Eigen::Vector3d down = -capsule.radius * up;
  const std::array<Eigen::Vector3d, 2> ends = {X_WA.translation - half_axis + down,
                                               X_WA.translation + half_axis + down};
  return FromLowestPoints(ends, up, p);
}

PairGeometry HullPlane(const ConvexHull& hull, const Pose& X_WA, const Eigen::Vector3d& up,
                       const Eigen::Vector3d& p) {
  return FromLowestPoints(
      static_cast<int>(hull.vertices.size()),
      [&](int i) { return X_WA.TransformPoint(hull.vertices[i]); }, up, p);
}

}  // namespace

PairGeometry CollidePlane(const Shape& a, const Pose& X_Wa, const Pose& X_Wb) {
  const Eigen::Vector3d up = X_Wb.rotation.col(2);
  const Eigen::Vector3d& p = X_Wb.translation;
  switch (a.type) {
    case ShapeType::kBox:
      return BoxPlane(a, X_Wa, up, p);
    case ShapeType::kCylinder:
      return CylinderPlane(a, X_Wa, up, p);
    case ShapeType::kCapsule:
      return CapsulePlane(a, X_Wa, up, p);
    case ShapeType::kConvexMesh:
      return HullPlane(*a.hull, X_Wa, up, p);
    case ShapeType::kSphere:
    case ShapeType::kPlane:
      break;  // collision.cc sends these elsewhere
  }
  return {};
}

}  // namespace twinblocks::contact::internal
