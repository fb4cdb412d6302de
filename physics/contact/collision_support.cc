#include "physics/contact/collision_support.h"

#include <cmath>
#include <vector>

namespace twinblocks::contact::internal {

Eigen::Vector3d SupportInShape(const Shape& s, const Eigen::Vector3d& u) {
  const auto side = [](double x) { return x >= 0.0 ? 1.0 : -1.0; };
  switch (s.type) {
    case ShapeType::kBox:
      return 0.5 * s.size.cwiseProduct(Eigen::Vector3d(side(u.x()), side(u.y()), side(u.z())));
    case ShapeType::kCylinder: {
      const double rho = std::hypot(u.x(), u.y());
      const double z = 0.5 * s.length * side(u.z());
      if (rho == 0.0) return {s.radius, 0.0, z};
      return {s.radius * u.x() / rho, s.radius * u.y() / rho, z};
    }
    case ShapeType::kCapsule: {
      const double len = u.norm();
      const Eigen::Vector3d end(0.0, 0.0, 0.5 * s.length * side(u.z()));
      return len > 0.0 ? Eigen::Vector3d(end + (s.radius / len) * u) : end;
    }
    case ShapeType::kConvexMesh: {
      const std::vector<Eigen::Vector3d>& v = s.hull->vertices;
      int best = 0;
      double best_h = u.dot(v[0]);
      for (int i = 1; i < static_cast<int>(v.size()); ++i) {
        const double h = u.dot(v[i]);
        if (h > best_h) {
          best_h = h;
          best = i;
        }
      }
      return v[best];
    }
    case ShapeType::kSphere:
    case ShapeType::kPlane:
      break;  // closed forms: collision.cc sends these elsewhere
  }
  return Eigen::Vector3d::Zero();
}

}  // namespace twinblocks::contact::internal
