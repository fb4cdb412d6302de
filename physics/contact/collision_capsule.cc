// Capsule against capsule in closed form: two segments inflated by their radii, so the pair's
// geometry follows from the segments' closest points (Ericson 5.1.9). Two capsules lying side
// by side touch along a line: they get a contact point at each end of the segments' overlap,
// so that the pair resists rolling about the normal's perpendicular.

#include <cmath>

#include "physics/contact/collision_closest_points.h"
#include "physics/contact/collision_pairs.h"
#include "physics/contact/collision_points.h"

namespace twinblocks::contact::internal {

using multibody::Pose;

PairGeometry CollideCapsules(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  const Eigen::Vector3d axis_a = X_Wa.rotation.col(2), axis_b = X_Wb.rotation.col(2);
  const Eigen::Vector3d half_a = 0.5 * a.length * axis_a, half_b = 0.5 * b.length * axis_b;
  const Eigen::Vector3d a0 = X_Wa.translation - half_a, a1 = X_Wa.translation + half_a;
  const Eigen::Vector3d b0 = X_Wb.translation - half_b, b1 = X_Wb.translation + half_b;
  Eigen::Vector3d ca, cb;
  ClosestPointsOfSegments(a0, a1, b0, b1, &ca, &cb);
  const Eigen::Vector3d diff = cb - ca;
  const double len = diff.norm();
  const Eigen::Vector3d axis_cross = axis_a.cross(axis_b);
  const double cross_norm = axis_cross.norm();
  Eigen::Vector3d normal;
  if (len > 0.0) {
    normal = diff / len;
  } else {
    // The segments meet: push b out along their common perpendicular (any perpendicular of a
    // parallel pair), towards b's side of a's centre.
    normal = cross_norm > 0.0 ? Eigen::Vector3d(axis_cross / cross_norm)
                              : Eigen::Vector3d(axis_a.unitOrthogonal());
    if (normal.dot(X_Wb.translation - X_Wa.translation) < 0.0) normal = -normal;
  }
  const double distance = len - a.radius - b.radius;
  PairGeometry g =
      SinglePointGeometry(distance, normal, ca + a.radius * normal, cb - b.radius * normal);
  if (distance >= 0.0 || cross_norm > kParallelSine) return g;

  // Nearly parallel: the ends of the overlap of b's segment, projected onto a's axis, with a's
  // segment; at each, the depth between a's and b's surfaces along the normal.
  const double ta0 = axis_a.dot(b0 - X_Wa.translation), ta1 = axis_a.dot(b1 - X_Wa.translation);
  const double lo = std::max(-0.5 * a.length, std::min(ta0, ta1));
  const double hi = std::min(0.5 * a.length, std::max(ta0, ta1));
  ContactCandidates c;
  c.Add(g.points[0].position, g.points[0].depth);
  for (const double t : {lo, hi}) {
    if (hi < lo) break;
    const Eigen::Vector3d xa = X_Wa.translation + t * axis_a;
    const Eigen::Vector3d xb = ClosestPointOnSegment(xa, b0, b1);
    const Eigen::Vector3d surface_a = xa + a.radius * normal, surface_b = xb - b.radius * normal;
    c.Add(0.5 * (surface_a + surface_b), std::min(-distance, normal.dot(surface_a - surface_b)));
  }
  SelectContactPoints(c, &g);
  return g;
}

}  // namespace twinblocks::contact::internal
