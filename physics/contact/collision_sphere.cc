// A sphere against every shape, in closed form: a sphere is its centre inflated by its radius,
// so the pair's geometry follows from the point of the other shape's surface nearest to the
// centre (or, with the centre inside, the nearest point through which it would leave). The
// signed distance is that point's signed distance minus the radius; the normal is the
// surface's outward normal there, reversed (it points from the sphere towards the shape).

#include <algorithm>
#include <cmath>
#include <limits>

#include "physics/contact/collision_closest_points.h"
#include "physics/contact/collision_pairs.h"

namespace twinblocks::contact::internal {

using multibody::Pose;

namespace {

// A point c in the shape's frame S, seen from the shape's surface: c = q + s m, with q on the
// surface, m the unit outward normal there and s the signed distance of c (< 0 inside).
struct SurfacePoint {
  Eigen::Vector3d q;
  Eigen::Vector3d m;
  double s;
};

SurfacePoint FromSphere(const Eigen::Vector3d& c, double radius) {
  const double len = c.norm();
  // Concentric: every direction is as good; +z of S.
  const Eigen::Vector3d m = len > 0.0 ? Eigen::Vector3d(c / len) : Eigen::Vector3d::UnitZ();
  return {radius * m, m, len - radius};
}

// A capsule is its segment inflated by its radius.
SurfacePoint FromCapsule(const Eigen::Vector3d& c, double radius, double half_length) {
  const Eigen::Vector3d axis_point(0.0, 0.0, std::clamp(c.z(), -half_length, half_length));
  SurfacePoint p = FromSphere(c - axis_point, radius);
  p.q += axis_point;
  return p;
}

// Outside: the clamped point (Ericson 5.1.3). Inside: the nearest face, through which c leaves
// the box soonest.
SurfacePoint FromBox(const Eigen::Vector3d& c, const Eigen::Vector3d& half) {
  const Eigen::Vector3d q = c.cwiseMax(-half).cwiseMin(half);
  const Eigen::Vector3d diff = c - q;
  const double len = diff.norm();
  if (len > 0.0) return {q, diff / len, len};
  int axis = 0;
  const Eigen::Vector3d margin = half - c.cwiseAbs();
  margin.minCoeff(&axis);
  const double side = c[axis] < 0.0 ? -1.0 : 1.0;
  SurfacePoint p{c, Eigen::Vector3d::Zero(), -margin[axis]};
  p.q[axis] = side * half[axis];
  p.m[axis] = side;
  return p;
}

// The cylinder's axis is z. Outside: radius and height clamped; inside: out through the side
// or a cap, whichever is nearer.
SurfacePoint FromCylinder(const Eigen::Vector3d& c, double radius, double half_length) {
  // Not std::hypot: its care for overflow costs more than the rest of the test, and lengths
  // here are far from overflow.
  const double rho = std::sqrt(c.x() * c.x() + c.y() * c.y());
  if (rho > radius || std::abs(c.z()) > half_length) {
    const double scale = rho > radius ? radius / rho : 1.0;
    const Eigen::Vector3d q(scale * c.x(), scale * c.y(),
                            std::clamp(c.z(), -half_length, half_length));
    const Eigen::Vector3d diff = c - q;
    const double len = diff.norm();
    return {q, diff / len, len};
  }
  const double side_margin = radius - rho, cap_margin = half_length - std::abs(c.z());
  if (side_margin < cap_margin) {
    // On the axis, every radial direction is as good; +x of S.
    const Eigen::Vector3d m =
        rho > 0.0 ? Eigen::Vector3d(c.x() / rho, c.y() / rho, 0.0) : Eigen::Vector3d::UnitX();
    return {Eigen::Vector3d(radius * m.x(), radius * m.y(), c.z()), m, -side_margin};
  }
  const double side = c.z() < 0.0 ? -1.0 : 1.0;
  return {Eigen::Vector3d(c.x(), c.y(), side * half_length), Eigen::Vector3d(0.0, 0.0, side),
          -cap_margin};
}

SurfacePoint FromPlane(const Eigen::Vector3d& c) {
  return {Eigen::Vector3d(c.x(), c.y(), 0.0), Eigen::Vector3d::UnitZ(), c.z()};
}

// Inside the hull (below every face's plane): out through the face whose plane is nearest.
// Outside: the nearest point lies on a face whose plane c is above (for c - q is a positive
// combination of the normals of the faces at q), so only those faces' triangles (fans of the
// convex faces) are searched (Ericson 5.1.5 per triangle).
SurfacePoint FromHull(const Eigen::Vector3d& c, const ConvexHull& hull) {
  const std::vector<Eigen::Vector3d>& v = hull.vertices;
  int nearest_plane = 0;
  double max_height = -std::numeric_limits<double>::infinity();
  for (size_t f = 0; f < hull.faces.size(); ++f) {
    const double height = hull.normals[f].dot(c - v[hull.faces[f][0]]);
    if (height > max_height) {
      max_height = height;
      nearest_plane = static_cast<int>(f);
    }
  }
  if (max_height <= 0.0) {
    const Eigen::Vector3d& m = hull.normals[nearest_plane];
    return {c - max_height * m, m, max_height};
  }
  Eigen::Vector3d best_q = c;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (size_t f = 0; f < hull.faces.size(); ++f) {
    const std::vector<int>& face = hull.faces[f];
    if (hull.normals[f].dot(c - v[face[0]]) <= 0.0) continue;
    for (size_t k = 1; k + 1 < face.size(); ++k) {
      const Eigen::Vector3d q = ClosestPointOnTriangle(c, v[face[0]], v[face[k]], v[face[k + 1]]);
      const double d2 = (c - q).squaredNorm();
      if (d2 < best_d2) {
        best_d2 = d2;
        best_q = q;
      }
    }
  }
  const double len = std::sqrt(best_d2);
  return {best_q, (c - best_q) / len, len};
}

SurfacePoint FromShape(const Eigen::Vector3d& c, const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return FromSphere(c, shape.radius);
    case ShapeType::kBox:
      return FromBox(c, 0.5 * shape.size);
    case ShapeType::kCylinder:
      return FromCylinder(c, shape.radius, 0.5 * shape.length);
    case ShapeType::kCapsule:
      return FromCapsule(c, shape.radius, 0.5 * shape.length);
    case ShapeType::kPlane:
      return FromPlane(c);
    case ShapeType::kConvexMesh:
      return FromHull(c, *shape.hull);
  }
  return FromPlane(c);
}

}  // namespace

PairGeometry CollideSphere(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  const Eigen::Matrix3d& R_WB = X_Wb.rotation;
  const Eigen::Vector3d c_B = R_WB.transpose() * (X_Wa.translation - X_Wb.translation);
  const SurfacePoint p = FromShape(c_B, b);
  const Eigen::Vector3d normal = -(R_WB * p.m);
  return SinglePointGeometry(p.s - a.radius, normal, X_Wa.translation + a.radius * normal,
                             X_Wb.TransformPoint(p.q));
}

}  // namespace twinblocks::contact::internal
