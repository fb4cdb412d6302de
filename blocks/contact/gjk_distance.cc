// FCL's libccd-based signed distance (fcl::detail::GJKSignedDistance: libccd's GJK, FCL's
// distance iteration for separated shapes, and FCL's EPA with the corrections of its nearest
// polytope feature) called with our own support functions, so that no FCL shape object is
// built per query. FCL's other GJK (GJKSolver_indep) is not used: its EPA can stop on a face
// whose foot point lies outside it, with a wrong normal and depth.

#include "blocks/contact/gjk_distance.h"

#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd.h>

#include <cmath>

namespace twinblocks::contact::internal {

using multibody::Pose;

namespace {

// GJK iterations; polytope pairs need a few tens, round ones stop on the tolerance.
constexpr unsigned kGjkIterations = 500;
// GJK stops when the distance improves by less than this, EPA when its bounds on the depth
// are this close; relative to the smaller shape's bounding radius.
constexpr double kRelativeTolerance = 1e-7;
// libccd's EPA has no iteration limit, and on round shapes with a continuum of deepest
// directions (a cylinder inside another, coaxial) it refines for very long. After this many
// support points the callbacks repeat their last point: a vertex of EPA's polytope, which
// cannot deepen it, so EPA stops with its best polytope so far.
constexpr int kSupportBudget = 1000;

// The support calls of one query: libccd asks shape a, then shape b, for each point.
struct SupportBudget {
  int remaining = kSupportBudget;
};

// A shape posed in W, as libccd's support callbacks see it. A capsule is its segment (its
// radius is added afterwards: the signed distance of a set inflated by r is the set's minus
// r, exactly, and GJK and EPA converge faster and closer on a segment than on round caps).
struct PosedShape {
  const Shape* shape;
  const Pose* X_WS;
  SupportBudget* budget;
  bool counts;  // b's calls, the second of each pair, spend the budget
  Eigen::Vector3d last = Eigen::Vector3d::Zero();
};

// The point of the shape (in S) farthest along u (in S). Ties go to a vertex of the shape
// (a box corner, a rim point), so that EPA's polytope does not get degenerate faces.
Eigen::Vector3d Support(const Shape& s, const Eigen::Vector3d& u) {
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
    case ShapeType::kCapsule:
      return {0.0, 0.0, 0.5 * s.length * side(u.z())};
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

// libccd's support callback: the support point in W along a direction in W.
void SupportCallback(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  PosedShape& p = *static_cast<PosedShape*>(const_cast<void*>(obj));
  if (p.budget->remaining > 0) {
    const Eigen::Vector3d d(dir->v[0], dir->v[1], dir->v[2]);
    p.last = p.X_WS->TransformPoint(Support(*p.shape, p.X_WS->rotation.transpose() * d));
    if (p.counts) --p.budget->remaining;
  }
  out->v[0] = p.last.x();
  out->v[1] = p.last.y();
  out->v[2] = p.last.z();
}

double Inflation(const Shape& s) { return s.type == ShapeType::kCapsule ? s.radius : 0.0; }

// The support point of a posed shape along d (W), inflation included.
Eigen::Vector3d SupportW(const Shape& s, const Pose& X_WS, const Eigen::Vector3d& d) {
  return X_WS.TransformPoint(Support(s, X_WS.rotation.transpose() * d)) + Inflation(s) * d;
}

// The direction from a's origin to b's (+z if they coincide): the normal when the shapes
// touch without depth and no better one is known.
Eigen::Vector3d CentreLine(const Pose& X_Wa, const Pose& X_Wb) {
  const Eigen::Vector3d d = X_Wb.translation - X_Wa.translation;
  const double len = d.norm();
  return len > 0.0 ? Eigen::Vector3d(d / len) : Eigen::Vector3d::UnitZ();
}

}  // namespace

SignedDistance GjkSignedDistance(const Shape& a, const Pose& X_Wa, const Shape& b,
                                 const Pose& X_Wb) {
  SupportBudget budget;
  PosedShape pa{&a, &X_Wa, &budget, false}, pb{&b, &X_Wb, &budget, true};
  const double tolerance = kRelativeTolerance * std::min(BoundingRadius(a), BoundingRadius(b));
  double distance = 0.0;
  Eigen::Vector3d wa, wb;
  // FCL's EPA allocates its polytope as it grows it (see the header); apart, nothing is.
  fcl::detail::GJKSignedDistance<double>(&pa, &SupportCallback, &pb, &SupportCallback,
                                         kGjkIterations, tolerance, &distance, &wa, &wb);
  SignedDistance r;
  if (distance < 0.0) {
    // Overlapping: wa - wb is the point of the Minkowski difference a - b nearest the origin;
    // moving b by it separates the cores, so its length is the depth (to EPA's tolerance) and
    // its direction the normal. The witnesses keep EPA's position across the normal, a's on
    // a's support plane along it, b's the depth behind.
    const Eigen::Vector3d w = wa - wb;
    const double depth = w.norm() + Inflation(a) + Inflation(b);
    r.normal = w.norm() > 0.0 ? Eigen::Vector3d(w.normalized()) : CentreLine(X_Wa, X_Wb);
    const Eigen::Vector3d mid = 0.5 * (wa + wb);
    r.distance = -depth;
    r.point_a = mid + (r.normal.dot(SupportW(a, X_Wa, r.normal)) - r.normal.dot(mid)) * r.normal;
    r.point_b = r.point_a - depth * r.normal;
    return r;
  }
  // Apart (or touching): the witnesses are the closest points of the cores.
  r.normal = distance > 0.0 ? Eigen::Vector3d((wb - wa) / distance) : CentreLine(X_Wa, X_Wb);
  r.distance = distance - Inflation(a) - Inflation(b);
  r.point_a = wa + Inflation(a) * r.normal;
  r.point_b = wb - Inflation(b) * r.normal;
  return r;
}

}  // namespace twinblocks::contact::internal
