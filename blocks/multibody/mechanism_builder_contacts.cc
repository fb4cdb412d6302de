// BuildMechanism, the contacts: each SpatialContactForce resolved to the Solids at its frames
// and a contact law per pair of their shapes.
#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/detail/frame_tree_builder.h"
#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/loop_constraint.h"
#include "physics/multibody/algorithms.h"

namespace twinblocks::multibody::internal {

/// The collision shape of a Solid, or nullopt for shape 'none'.
std::optional<contact::Shape> CollisionShapeOf(const SolidElement& s) {
  switch (s.shape) {
    case ShapeKind::kSphere:
      return contact::Shape::Sphere(s.radius);
    case ShapeKind::kBox:
      return contact::Shape::Box(s.size);
    case ShapeKind::kCylinder:
      return contact::Shape::Cylinder(s.radius, s.length);
    case ShapeKind::kCapsule:
      return contact::Shape::Capsule(s.radius, s.length);
    case ShapeKind::kPlane:
      return contact::Shape::Plane();
    case ShapeKind::kMesh:
      return contact::Shape::ConvexMesh(contact::MakeConvexHull(s.mesh->vertices));
    case ShapeKind::kNone:
      break;
  }
  return std::nullopt;
}

/// The radius of curvature a Hertz contact sees on a shape: its radius where it is round,
/// infinite where it is flat (box, plane, mesh faces).
double CurvatureRadius(const contact::Shape& s) {
  switch (s.type) {
    case contact::ShapeType::kSphere:
    case contact::ShapeType::kCylinder:
    case contact::ShapeType::kCapsule:
      return s.radius;
    default:
      return std::numeric_limits<double>::infinity();
  }
}

std::vector<contact::ContactLaw> ContactLaws(int e, const contact::SpatialContactForceElement& el,
                                             const MechanismContact& c) {
  std::vector<contact::ContactLaw> laws;
  for (const MechanismContactShape& b : c.b) {
    for (const MechanismContactShape& f : c.f) {
      if (b.shape.type == contact::ShapeType::kPlane &&
          f.shape.type == contact::ShapeType::kPlane) {
        throw NetworkError(e, "contact " + Quote(c.name) + " is between two planes (" +
                                  Quote(b.solid) + " and " + Quote(f.solid) +
                                  "); a plane is a fixed half-space, it touches other shapes");
      }
      contact::ContactLaw law = el.law;
      if (el.materials) {
        const contact::HertzMaterials& m = *el.materials;
        double R = m.radius;
        if (R == 0.0) {
          const double rb = CurvatureRadius(b.shape), rf = CurvatureRadius(f.shape);
          R = 1.0 / (1.0 / rb + 1.0 / rf);
        }
        if (!std::isfinite(R)) {
          throw NetworkError(e, "contact " + Quote(c.name) +
                                    ": the Hertz stiffness needs a "
                                    "radius of curvature, and both " +
                                    Quote(b.solid) + " and " + Quote(f.solid) +
                                    " are flat; set parameter 'radius'");
        }
        law.stiffness = contact::HertzStiffness(m.E[0], m.nu[0], m.E[1], m.nu[1], R);
        law.damping = contact::HertzDamping(m.gamma, R);
      }
      laws.push_back(law);
    }
  }
  return laws;
}

/// A SpatialContactForce resolved to the shapes on its two sides.
MechanismContact BuildContact(const MechanismBuilder& network, int e,
                              const contact::SpatialContactForceElement& el,
                              const FrameTreeBuilder& builder) {
  const std::vector<NetworkElement>& elements = network.elements();
  MechanismContact c;
  c.name = elements[e].name;
  for (int side = 0; side < 2; ++side) {
    const int node = elements[e].nodes[side];
    const char* port = side == 0 ? "B" : "F";
    std::vector<MechanismContactShape>& shapes = side == 0 ? c.b : c.f;
    for (int s = 0; s < static_cast<int>(elements.size()); ++s) {
      const SolidElement* solid = network.solid(s);
      if (solid == nullptr || elements[s].nodes[0] != node) continue;
      const std::optional<contact::Shape> shape = CollisionShapeOf(*solid);
      if (!shape) {
        throw NetworkError(e, "contact " + Quote(c.name) + ": the Solid " +
                                  Quote(elements[s].name) + " at its frame " + port +
                                  " has shape 'none', which has no surface to touch; give it a "
                                  "shape (sphere, box, cylinder, capsule, plane or mesh)");
      }
      if (solid->shape == ShapeKind::kMesh && !IsClosed(*solid->mesh)) {
        // A Solid takes an open mesh as a picture when its mass properties are given; the
        // contact hull and the penetration depth need the enclosed solid.
        throw NetworkError(e, "contact " + Quote(c.name) + ": the mesh of Solid " +
                                  Quote(elements[s].name) + " (" + solid->file +
                                  ") is not a closed surface, which contact needs");
      }
      shapes.push_back({elements[s].name, *shape, builder.location(node)});
    }
    if (shapes.empty()) {
      throw NetworkError(e, "contact " + Quote(c.name) + ": no Solid at its frame " + port +
                                "; connect " + port +
                                " to the R port of the Solid whose surface it touches");
    }
  }
  c.laws = ContactLaws(e, el, c);
  return c;
}

}  // namespace twinblocks::multibody::internal
