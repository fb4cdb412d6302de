// Both libraries are called with our own support functions, so that no library shape object
// is built per query. Apart: FCL's GJK distance on libccd's GJK (fcl::detail::GJKDistance),
// which allocates nothing. Overlapping: libccd's EPA (ccdGJKPenetration). Not used: FCL's
// own EPA variants. Its GJKSolver_indep EPA can stop on a face whose foot point lies outside
// it, with a wrong normal and depth; its libccd-based EPA throws on degenerate polytopes
// (stacked boxes, coaxial cylinders) and Debian's libfcl is built with the assertions on, so a
// failed one would abort the simulation.

#include "physics/contact/gjk_distance.h"

#include <ccd/ccd.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd-inl.h>

#include <cmath>

#include "physics/contact/collision_support.h"

// FCL's GJK distance is a template that its headers define in full. Instantiated here, it
// needs libccd only: libfcl.so, with the octree libraries it loads (liboctomap, liboctomath),
// is then not linked, and every start of the program is 2.8 ms shorter (of 11 ms).
template bool fcl::detail::GJKDistance<double>(void*, ccd_support_fn, void*, ccd_support_fn,
                                               unsigned int, double, double*, fcl::Vector3d*,
                                               fcl::Vector3d*);

namespace twinblocks::contact::internal {

using multibody::Pose;

namespace {

// GJK iterations; polytope pairs need a few tens, round ones stop on the tolerance.
constexpr unsigned kGjkIterations = 500;
// GJK stops when the distance improves by less than this; EPA when a new support point lies
// this close to its polytope. Relative to the smaller shape's bounding radius. EPA's cost on
// round shapes grows as the tolerance shrinks (its polytope has to follow the curvature: a
// thin cylinder coaxial inside another, whose deepest directions form a circle, needs about
// 2 pi sqrt(r / 8 tolerance) vertices), so its tolerance is coarser.
constexpr double kGjkTolerance = 1e-9;
constexpr double kEpaTolerance = 1e-6;

// A shape posed in W, as libccd's support callbacks see it.
struct PosedShape {
  const Shape* shape;
  const Pose* X_WS;
};

// libccd's support callback: the support point in W along a direction in W.
void SupportCallback(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const PosedShape& p = *static_cast<const PosedShape*>(obj);
  const Eigen::Vector3d x =
      SupportPoint(*p.shape, *p.X_WS, Eigen::Vector3d(dir->v[0], dir->v[1], dir->v[2]));
  out->v[0] = x.x();
  out->v[1] = x.y();
  out->v[2] = x.z();
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
  PosedShape pa{&a, &X_Wa}, pb{&b, &X_Wb};
  const double size = std::min(BoundingRadius(a), BoundingRadius(b));
  SignedDistance r;
  double distance = 0.0;
  Eigen::Vector3d wa, wb;
  if (fcl::detail::GJKDistance<double>(&pa, &SupportCallback, &pb, &SupportCallback, kGjkIterations,
                                       kGjkTolerance * size, &distance, &wa, &wb)) {
    // Apart (or touching): the witnesses are the closest points.
    const Eigen::Vector3d d = wb - wa;
    r.distance = distance;
    r.normal = d.squaredNorm() > 0.0 ? Eigen::Vector3d(d.normalized()) : CentreLine(X_Wa, X_Wb);
    r.point_a = wa;
    r.point_b = wb;
    return r;
  }
  // Overlapping: libccd's EPA gives the direction in which to move b to separate the shapes
  // and a point of the overlap. The depth is the overlap of the shapes' extents along that
  // direction, from the supports: libccd's own depth can come from a polytope feature that is
  // not the nearest (its EPA may misjudge it), and this keeps depth, normal and witnesses
  // consistent. The witnesses are at the overlap point across the normal, a's on a's support
  // plane, b's on b's.
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = &SupportCallback;
  ccd.support2 = &SupportCallback;
  ccd.max_iterations = kGjkIterations;
  ccd.epa_tolerance = kEpaTolerance * size;
  ccd_real_t depth = 0.0;
  ccd_vec3_t dir, pos;
  if (ccdGJKPenetration(&pa, &pb, &ccd, &depth, &dir, &pos) != 0 || !(depth > 0.0)) {
    // libccd finds no depth where FCL's GJK found an overlap: the shapes touch.
    r.normal = CentreLine(X_Wa, X_Wb);
    r.point_a = r.point_b = SupportPoint(a, X_Wa, r.normal);
    return r;
  }
  r.normal = Eigen::Vector3d(dir.v[0], dir.v[1], dir.v[2]).normalized();
  const Eigen::Vector3d p(pos.v[0], pos.v[1], pos.v[2]);
  double top_a = r.normal.dot(SupportPoint(a, X_Wa, r.normal));
  double bottom_b = r.normal.dot(SupportPoint(b, X_Wb, -r.normal));
  // The overlap along any direction bounds the depth from above. libccd's EPA can end on a
  // face of the polytope's far side (a capsule across a cylinder's curved side: the whole
  // width of both, 9 cm, instead of 2 mm): the opposite direction is then the answer.
  const double top_a_flipped = -r.normal.dot(SupportPoint(a, X_Wa, -r.normal));
  const double bottom_b_flipped = -r.normal.dot(SupportPoint(b, X_Wb, r.normal));
  if (top_a_flipped - bottom_b_flipped < top_a - bottom_b) {
    r.normal = -r.normal;
    top_a = top_a_flipped;
    bottom_b = bottom_b_flipped;
  }
  const Eigen::Vector3d across = p - r.normal.dot(p) * r.normal;
  r.distance = bottom_b - top_a;
  r.point_a = across + top_a * r.normal;
  r.point_b = across + bottom_b * r.normal;
  return r;
}

}  // namespace twinblocks::contact::internal
