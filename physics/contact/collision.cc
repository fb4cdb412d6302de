#include "physics/contact/collision.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

#include "physics/contact/collision_pairs.h"

namespace twinblocks::contact {

using multibody::Pose;

Shape Shape::Sphere(double radius) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = radius;
  return s;
}

Shape Shape::Box(const Eigen::Vector3d& size) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = size;
  return s;
}

Shape Shape::Cylinder(double radius, double length) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = radius;
  s.length = length;
  return s;
}

Shape Shape::Capsule(double radius, double length) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = radius;
  s.length = length;
  return s;
}

Shape Shape::Plane() {
  Shape s;
  s.type = ShapeType::kPlane;
  return s;
}

Shape Shape::ConvexMesh(std::shared_ptr<const ConvexHull> hull) {
  if (!hull || hull->faces.empty() || hull->normals.size() != hull->faces.size()) {
    throw std::invalid_argument("Shape::ConvexMesh: the hull must come from MakeConvexHull");
  }
  Shape s;
  s.type = ShapeType::kConvexMesh;
  s.hull = std::move(hull);
  return s;
}

double BoundingRadius(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return shape.radius;
    case ShapeType::kBox:
      return 0.5 * shape.size.norm();
    case ShapeType::kCylinder:
      return std::hypot(shape.radius, 0.5 * shape.length);
    case ShapeType::kCapsule:
      return shape.radius + 0.5 * shape.length;
    case ShapeType::kPlane:
      return std::numeric_limits<double>::infinity();
    case ShapeType::kConvexMesh:
      return shape.hull->bounding_radius;
  }
  return std::numeric_limits<double>::infinity();
}

namespace internal {

PairGeometry SinglePointGeometry(double distance, const Eigen::Vector3d& normal,
                                 const Eigen::Vector3d& point_a, const Eigen::Vector3d& point_b) {
  PairGeometry g;
  g.distance = distance;
  g.normal = normal;
  g.point_a = point_a;
  g.point_b = point_b;
  if (distance < 0.0) {
    g.num_points = 1;
    g.points[0] = {0.5 * (point_a + point_b), -distance};
  }
  return g;
}

}  // namespace internal

namespace {

// The order in which the pair tests take their shapes: a sphere is always a, a plane always b.
int Rank(ShapeType type) {
  switch (type) {
    case ShapeType::kSphere:
      return 0;
    case ShapeType::kCapsule:
      return 1;
    case ShapeType::kBox:
      return 2;
    case ShapeType::kCylinder:
      return 3;
    case ShapeType::kConvexMesh:
      return 4;
    case ShapeType::kPlane:
      return 5;
  }
  return 5;
}

// A strict order on (shape, pose), so that Collide(a, b) and Collide(b, a) run the very same
// test and differ only by the flip: action and reaction then match to the last bit. Shapes of
// one type are ordered by pose, then dimensions, then hull.
bool Precedes(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  if (a.type != b.type) return Rank(a.type) < Rank(b.type);
  const auto key = [](const Shape& s, const Pose& X) {
    std::array<double, 17> k;
    std::copy_n(X.translation.data(), 3, k.begin());
    std::copy_n(X.rotation.data(), 9, k.begin() + 3);
    k[12] = s.radius;
    k[13] = s.length;
    std::copy_n(s.size.data(), 3, k.begin() + 14);
    return k;
  };
  const std::array<double, 17> ka = key(a, X_Wa), kb = key(b, X_Wb);
  if (ka != kb) return ka < kb;
  return std::less<const ConvexHull*>()(a.hull.get(), b.hull.get());
}

void Flip(PairGeometry* g) {
  g->normal = -g->normal;
  std::swap(g->point_a, g->point_b);
}

// a ranks no higher than b.
PairGeometry CollideOrdered(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  // A sphere against a primitive costs no more than the rejection below: always exact.
  if (a.type == ShapeType::kSphere && b.type != ShapeType::kConvexMesh) {
    return internal::CollideSphere(a, X_Wa, b, X_Wb);
  }
  if (b.type == ShapeType::kPlane) {
    if (a.type == ShapeType::kPlane) {
      return internal::SinglePointGeometry(std::numeric_limits<double>::infinity(),
                                           X_Wa.rotation.col(2), X_Wa.translation,
                                           X_Wb.translation);
    }
    return internal::CollidePlane(a, X_Wa, X_Wb);
  }
  // Far pairs: the bounding spheres are apart, so are the shapes; their gap bounds the
  // shapes' gap from below, and the exact test (GJK for most of these pairs) is skipped.
  const double ra = BoundingRadius(a), rb = BoundingRadius(b);
  const Eigen::Vector3d d = X_Wb.translation - X_Wa.translation;
  if (d.squaredNorm() > (ra + rb) * (ra + rb)) {
    const double len = d.norm();
    const Eigen::Vector3d n = d / len;
    // Apart (len > ra + rb): no points.
    return internal::SinglePointGeometry(len - ra - rb, n, X_Wa.translation + ra * n,
                                         X_Wb.translation - rb * n);
  }
  if (a.type == ShapeType::kSphere) return internal::CollideSphere(a, X_Wa, b, X_Wb);
  if (a.type == ShapeType::kCapsule && b.type == ShapeType::kCapsule) {
    return internal::CollideCapsules(a, X_Wa, b, X_Wb);
  }
  return internal::CollideConvex(a, X_Wa, b, X_Wb);
}

}  // namespace

PairGeometry Collide(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  // One named result on every path, built in the caller's place and flipped there: a copy of
  // the eight points would cost more than a sphere's query.
  const bool swapped = Precedes(b, X_Wb, a, X_Wa);
  PairGeometry g = swapped ? CollideOrdered(b, X_Wb, a, X_Wa) : CollideOrdered(a, X_Wa, b, X_Wb);
  if (swapped) Flip(&g);
  return g;
}

}  // namespace twinblocks::contact
