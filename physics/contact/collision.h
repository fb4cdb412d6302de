#pragma once

// Collision geometry of the Solid shapes: where two shapes touch, how deep they overlap or how
// far apart they are, and along which normal. SpatialContactForce turns this into forces; this
// file knows nothing of forces, blocks or bodies.
//
// Closed forms where they exist (a sphere against every shape, capsule against capsule, box,
// cylinder, capsule and convex mesh against a plane); GJK through FCL and EPA through libccd
// (Debian's libfcl and libccd) for the other convex pairs. A flat face resting on a plane or on a
// face of another shape gives several contact points (its corners, or points on a cylinder's rim)
// so that the pair can carry a moment, as in MuJoCo and Drake's point-contact manifolds.
//
// Conventions: every shape is described in its own frame S, as the Solid block has it (sphere
// and box centred on the origin, box edges along the axes; cylinder and capsule along z,
// centred; plane: the half-space z <= 0, normal +z; mesh: the convex hull of its vertices).
// A pair query takes the two shapes' poses in a common frame W and answers in W.

#include <Eigen/Core>
#include <array>
#include <memory>
#include <vector>

#include "physics/spatial/spatial.h"

namespace twinblocks::contact {

/// The convex hull a mesh shape collides as (Simscape's contact uses convex hulls too). Built
/// once, before a run, from the mesh's vertices by MakeConvexHull, which also fills in the
/// face normals and bounding radius the queries use.
struct ConvexHull {
  std::vector<Eigen::Vector3d> vertices;  ///< in S (m): the hull's vertices
  /// Outward faces as vertex index lists (counter-clockwise seen from outside), for
  /// multi-point contact between faces. Coplanar triangles are merged: a cube has 6 faces.
  std::vector<std::vector<int>> faces;
  std::vector<Eigen::Vector3d> normals;  ///< unit outward normal of each face, in S
  double bounding_radius = 0.0;          ///< m: max |vertex|, the hull's BoundingRadius
};

/// Builds the convex hull of a point set (a mesh's vertices): Quickhull (Barber, Dobkin and
/// Huhdanpaa 1996), then coplanar triangles merged into polygons. Points within 1e-7 of the
/// point set's size from the hull's surface count as on it.
/// @throws std::invalid_argument if fewer than four points, a point is not finite, or all
///   points lie in a plane.
std::shared_ptr<const ConvexHull> MakeConvexHull(const std::vector<Eigen::Vector3d>& points);

enum class ShapeType { kSphere, kBox, kCylinder, kCapsule, kPlane, kConvexMesh };

/// One collision shape in its frame S.
struct Shape {
  ShapeType type = ShapeType::kSphere;
  double radius = 0.0;                             ///< m: sphere, cylinder, capsule
  double length = 0.0;                             ///< m: cylinder; capsule's cylindrical part
  Eigen::Vector3d size = Eigen::Vector3d::Zero();  ///< m: box, full edge lengths
  std::shared_ptr<const ConvexHull> hull;          ///< kConvexMesh

  static Shape Sphere(double radius);
  static Shape Box(const Eigen::Vector3d& size);
  static Shape Cylinder(double radius, double length);
  static Shape Capsule(double radius, double length);
  static Shape Plane();
  /// @throws std::invalid_argument if `hull` is null or has no faces or no normals for them
  ///   (a hull from MakeConvexHull has both).
  static Shape ConvexMesh(std::shared_ptr<const ConvexHull> hull);
};

/// Radius of a sphere about S's origin that holds the shape (infinite for a plane): for
/// rejecting far pairs before the exact test.
double BoundingRadius(const Shape& shape);

/// The most contact points one pair reports.
inline constexpr int kMaxContactPoints = 8;

/// One point of an overlap. Not initialized by default: a PairGeometry's unused points are
/// never read, and zeroing eight of them cost more than a sphere's whole query.
struct ContactPoint {
  Eigen::Vector3d position;  ///< W, midway between the two surfaces
  double depth;              ///< m, > 0: overlap along the pair's normal at this point
};

/// What a pair query answers. No heap allocation: a query runs inside the simulation loop.
struct PairGeometry {
  /// Signed distance (m): the gap between the shapes when apart (> 0), minus the deepest
  /// overlap when they overlap (< 0). Exact whenever the shapes' bounding spheres (centred on
  /// the shapes' origins, radius BoundingRadius) overlap, and always for a sphere against a
  /// sphere, box, cylinder, capsule or plane and for anything against a plane; otherwise the
  /// shapes are not queried and this is the gap between the bounding spheres, a lower bound.
  double distance = 0.0;
  /// Unit normal in W, pointing from shape a towards shape b: the direction b is pushed.
  /// Far pairs (see `distance`): from a's origin towards b's.
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  /// W: the point of a nearest to b (apart) or deepest inside b (overlapping), and the
  /// point of b nearest to a or deepest inside a; point_b - point_a = distance * normal.
  /// Far pairs: the points of the bounding spheres on the line of centres.
  Eigen::Vector3d point_a = Eigen::Vector3d::Zero();
  Eigen::Vector3d point_b = Eigen::Vector3d::Zero();
  /// The overlap's points (none when apart), all sharing `normal`; the deepest has depth
  /// -distance. Only the first num_points are set.
  int num_points = 0;
  std::array<ContactPoint, kMaxContactPoints> points;
};

/// The geometry of shape a at X_Wa against shape b at X_Wb. Symmetric: swapping a and b
/// negates the normal, swaps point_a and point_b and keeps everything else, bit for bit (but
/// for two identical shapes at one pose, where no normal is better than its opposite).
/// Two planes never collide (both are fixed half-spaces); the query reports them apart at
/// +inf.
/// Allocates nothing for two primitives (sphere, box, cylinder, capsule, plane), except while
/// a box, cylinder or capsule overlaps a box or cylinder: that penetration comes from libccd's
/// EPA, which allocates its polytope as it grows it.
PairGeometry Collide(const Shape& a, const multibody::Pose& X_Wa, const Shape& b,
                     const multibody::Pose& X_Wb);

}  // namespace twinblocks::contact
