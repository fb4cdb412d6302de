#include "physics/multibody/solid_geometry.h"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace twinblocks::multibody {
namespace {

constexpr double kPi = std::numbers::pi;

// Dimensions reach here from model parameters, so the message is written for the model's
// author: which quantity, what it must be, what it was ("radius must be finite and > 0 (m),
// got -0.1"). The Solid block prefixes the block's path and type.
void RequirePositive(double value, const std::string& name, const char* unit) {
  if (std::isfinite(value) && value > 0.0) return;
  std::ostringstream message;
  message << name << " must be finite and > 0 (" << unit << "), got " << value;
  throw std::invalid_argument(message.str());
}

MassProperties Centred(double volume, double density, const Eigen::Vector3d& inertia_diagonal) {
  MassProperties p;
  p.volume = volume;
  p.mass = density * volume;
  p.inertia_com = inertia_diagonal.asDiagonal();
  return p;
}

}  // namespace

const char* ShapeKindName(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kSphere:
      return "sphere";
    case ShapeKind::kBox:
      return "box";
    case ShapeKind::kCylinder:
      return "cylinder";
    case ShapeKind::kCapsule:
      return "capsule";
    case ShapeKind::kPlane:
      return "plane";
    case ShapeKind::kMesh:
      return "mesh";
    case ShapeKind::kNone:
      return "none";
  }
  return "unknown";
}

MassProperties SphereProperties(double radius, double density) {
  RequirePositive(radius, "radius", "m");
  RequirePositive(density, "density", "kg/m^3");
  const double r2 = radius * radius;
  const double volume = 4.0 / 3.0 * kPi * r2 * radius;
  const double i = 0.4 * density * volume * r2;
  return Centred(volume, density, Eigen::Vector3d::Constant(i));
}

MassProperties BoxProperties(const Eigen::Vector3d& size, double density) {
  RequirePositive(size.x(), "size[0] (x)", "m");
  RequirePositive(size.y(), "size[1] (y)", "m");
  RequirePositive(size.z(), "size[2] (z)", "m");
  RequirePositive(density, "density", "kg/m^3");
  const double volume = size.prod();
  const double m12 = density * volume / 12.0;
  const Eigen::Vector3d s2 = size.cwiseProduct(size);
  return Centred(
      volume, density,
      Eigen::Vector3d(m12 * (s2.y() + s2.z()), m12 * (s2.x() + s2.z()), m12 * (s2.x() + s2.y())));
}

MassProperties CylinderProperties(double radius, double length, double density) {
  RequirePositive(radius, "radius", "m");
  RequirePositive(length, "length", "m");
  RequirePositive(density, "density", "kg/m^3");
  const double r2 = radius * radius;
  const double volume = kPi * r2 * length;
  const double m = density * volume;
  const double transverse = m * (3.0 * r2 + length * length) / 12.0;
  return Centred(volume, density, Eigen::Vector3d(transverse, transverse, 0.5 * m * r2));
}

MassProperties CapsuleProperties(double radius, double length, double density) {
  RequirePositive(radius, "radius", "m");
  RequirePositive(length, "length", "m");
  RequirePositive(density, "density", "kg/m^3");
  const double r2 = radius * radius;
  const double cylinder_volume = kPi * r2 * length;
  const double hemisphere_volume = 2.0 / 3.0 * kPi * r2 * radius;
  const double m_c = density * cylinder_volume;
  const double m_h = density * hemisphere_volume;
  // A hemisphere's inertia about any axis through the centre of its flat face is half the full
  // sphere's, 2/5 m_h r^2; moved to its centroid (3/8 r inside) and then out to the capsule's
  // centre (L/2 + 3/8 r away), the two squared offsets combine into L^2/4 + 3/8 L r.
  const double transverse =
      m_c * (3.0 * r2 + length * length) / 12.0 +
      2.0 * m_h * (0.4 * r2 + 0.25 * length * length + 0.375 * length * radius);
  const double axial = 0.5 * m_c * r2 + 0.8 * m_h * r2;
  return Centred(cylinder_volume + 2.0 * hemisphere_volume, density,
                 Eigen::Vector3d(transverse, transverse, axial));
}

MassProperties ScaledToMass(const MassProperties& properties, double mass) {
  RequirePositive(mass, "mass", "kg");
  if (!(std::isfinite(properties.mass) && properties.mass > 0.0)) {
    throw std::invalid_argument("ScaledToMass: the solid to scale has no mass (" +
                                std::to_string(properties.mass) + " kg)");
  }
  MassProperties scaled = properties;
  scaled.mass = mass;
  scaled.inertia_com = properties.inertia_com * (mass / properties.mass);
  return scaled;
}

}  // namespace twinblocks::multibody
