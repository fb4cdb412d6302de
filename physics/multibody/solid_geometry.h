#pragma once

// Mass properties of the primitive shapes a Solid can have, in closed form. The Solid block
// turns a shape and a density (or a mass) into the mass, centre of mass and rotational inertia
// of its body; this file holds the geometry half of that, free of blocks and XML, so that it
// can be tested against independent integrations (tests/physics/multibody/solid_geometry_test.cc
// checks every formula against a tessellated mesh integrated by MeshProperties in mesh.h).
//
// Every shape is described in its own frame S (the Solid's frame R): the sphere and the box are
// centred on S's origin with the box's edges along S's axes; the cylinder and the capsule are
// centred on the origin with their axis along z. All lengths in m, densities in kg/m^3.

#include <Eigen/Core>

namespace twinblocks::multibody {

/// The shapes of the block catalog's Solid. kPlane (the half-space z <= 0, for fixed bodies)
/// and kNone (mass and inertia given directly) have no mass properties of their own; kMesh's
/// come from MeshProperties in mesh.h.
enum class ShapeKind { kSphere, kBox, kCylinder, kCapsule, kPlane, kMesh, kNone };

/// The catalog's spelling of a shape ("sphere", "box", ..., "none"), for messages.
const char* ShapeKindName(ShapeKind kind);

/// The mass properties of a uniform solid, in its shape frame S.
struct MassProperties {
  double volume = 0.0;                                    ///< m^3
  double mass = 0.0;                                      ///< kg
  Eigen::Vector3d com = Eigen::Vector3d::Zero();          ///< p_SCm_S: centre of mass in S (m)
  Eigen::Matrix3d inertia_com = Eigen::Matrix3d::Zero();  ///< I_Cm_S: rotational inertia about
                                                          ///< the CoM, axes of S (kg m^2)
};

/// A solid sphere centred on the origin: V = 4/3 pi r^3, I = 2/5 m r^2 about every axis.
/// @param radius  r (m), finite and > 0.
/// @param density  rho (kg/m^3), finite and > 0.
/// @throws std::invalid_argument naming the offending argument and its value.
MassProperties SphereProperties(double radius, double density);

/// A solid box centred on the origin, edges along x, y, z: V = a b c,
/// Ixx = m (b^2 + c^2) / 12 and so on.
/// @param size  the full edge lengths [a, b, c] along x, y, z (m), each finite and > 0.
/// @param density  rho (kg/m^3), finite and > 0.
/// @throws std::invalid_argument naming the offending component (size[0] (x), ...).
MassProperties BoxProperties(const Eigen::Vector3d& size, double density);

/// A solid circular cylinder along z, centred on the origin (from z = -L/2 to L/2, flat ends):
/// V = pi r^2 L, Izz = m r^2 / 2, Ixx = Iyy = m (3 r^2 + L^2) / 12.
/// @param radius  r (m), finite and > 0.
/// @param length  L, the full length along z (m), finite and > 0.
/// @param density  rho (kg/m^3), finite and > 0.
/// @throws std::invalid_argument naming the offending argument and its value.
MassProperties CylinderProperties(double radius, double length, double density);

/// A solid capsule along z, centred on the origin: a cylinder of radius r and length L with a
/// hemisphere of radius r added at each end, so that its total length is L + 2 r. `length` is
/// the cylinder part alone, as in Drake's Capsule(radius, length) and MuJoCo's capsule (whose
/// size gives half of it); URDF files that mean the total length must subtract 2 r first.
/// V = pi r^2 L + 4/3 pi r^3; with m_c the cylinder's mass and m_h one hemisphere's,
/// Izz = m_c r^2 / 2 + 4/5 m_h r^2 and
/// Ixx = Iyy = m_c (3 r^2 + L^2) / 12 + 2 m_h (2/5 r^2 + L^2 / 4 + 3/8 L r)
/// (each hemisphere moved from its own centroid, 3/8 r from its flat face, by the parallel
/// axis theorem).
/// @param radius  r (m), finite and > 0.
/// @param length  L, the length of the cylinder part (m), finite and > 0.
/// @param density  rho (kg/m^3), finite and > 0.
/// @throws std::invalid_argument naming the offending argument and its value.
MassProperties CapsuleProperties(double radius, double length, double density);

/// The same solid with a given mass instead of its density (uniform density mass / volume):
/// the volume and the centre of mass stay, the inertia scales by mass / properties.mass. This
/// is how a Solid with `mass` set gets its inertia from its shape.
/// @param properties  the solid at any density; properties.mass must be > 0.
/// @param mass  m (kg), finite and > 0.
/// @throws std::invalid_argument if mass is not finite and > 0, or properties.mass is not > 0.
MassProperties ScaledToMass(const MassProperties& properties, double mass);

}  // namespace twinblocks::multibody
