// The convex pairs without a closed form (box, cylinder, capsule and convex mesh against each
// other): GJK/EPA gives the signed distance, normal and deepest points; the contact points
// come from the two shapes' support features along the normal (the vertex, edge or face of
// each shape farthest along it), clipped against each other as in Gregorius, "Robust Contact
// Creation for Physics Simulations" (GDC 2015): when both are faces, the incident face is
// clipped against the side planes of the reference face (Sutherland and Hodgman, "Reentrant
// Polygon Clipping", 1974), and what stays below the reference face is in contact.

#include <array>
#include <cmath>

#include "physics/contact/collision_pairs.h"
#include "physics/contact/collision_points.h"
#include "physics/contact/collision_support.h"
#include "physics/contact/gjk_distance.h"

namespace twinblocks::contact::internal {

using multibody::Pose;

namespace {

// A face feature keeps at most this many vertices: a mesh face with more is thinned to a
// polygon of every k-th vertex, still convex and inside the face.
constexpr int kMaxFeatureVertices = 16;
// Clipping a polygon by a plane adds at most one vertex.
constexpr int kMaxClippedVertices = 2 * kMaxFeatureVertices;

// The part of a shape's surface farthest along a direction: 1 vertex (a point), 2 (an edge or
// a cylinder's side line) or more (a face, vertices in order around it), in W.
struct Feature {
  int count = 0;
  std::array<Eigen::Vector3d, kMaxFeatureVertices> v;
  Eigen::Vector3d face_normal = Eigen::Vector3d::Zero();  ///< W, outward; faces only

  void Add(const Eigen::Vector3d& p) { v[count++] = p; }
};

// Sine and cosine bounds of "parallel": a direction within kParallelSine of a face normal
// selects the face, one within it of perpendicular to an edge selects the edge.
const double kParallelCosine = std::sqrt(1.0 - kParallelSine * kParallelSine);

Feature BoxFeature(const Eigen::Vector3d& half, const Eigen::Vector3d& u) {
  Feature f;
  int num_free = 0, free_axis = 0;
  Eigen::Vector3d corner;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(u[i]) < kParallelSine) {
      ++num_free;
      free_axis = i;
    }
    corner[i] = u[i] < 0.0 ? -half[i] : half[i];
  }
  if (num_free == 0) {
    f.Add(corner);
  } else if (num_free == 1) {
    for (const double side : {-1.0, 1.0}) {
      corner[free_axis] = side * half[free_axis];
      f.Add(corner);
    }
  } else {
    int axis = 0;
    u.cwiseAbs().maxCoeff(&axis);
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    f.face_normal = Eigen::Vector3d::Unit(axis) * (u[axis] < 0.0 ? -1.0 : 1.0);
    for (const auto& [si, sj] : {std::pair{-1.0, -1.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}}) {
      corner[i] = si * half[i];
      corner[j] = sj * half[j];
      f.Add(corner);
    }
  }
  return f;
}

Feature CylinderFeature(double radius, double half_length, const Eigen::Vector3d& u) {
  Feature f;
  const double rho = std::hypot(u.x(), u.y());
  const Eigen::Vector2d radial =
      rho > 0.0 ? Eigen::Vector2d(u.x() / rho, u.y() / rho) : Eigen::Vector2d::UnitX();
  const double cap_z = u.z() < 0.0 ? -half_length : half_length;
  if (rho < kParallelSine) {
    // A cap: its rim polygon, from the rim point farthest along u.
    f.face_normal = Eigen::Vector3d(0.0, 0.0, u.z() < 0.0 ? -1.0 : 1.0);
    for (const Eigen::Vector2d& rim : kRimDirections) {
      const double c = rim.x(), s = rim.y();
      f.Add(Eigen::Vector3d(radius * (c * radial.x() - s * radial.y()),
                            radius * (s * radial.x() + c * radial.y()), cap_z));
    }
  } else if (std::abs(u.z()) < kParallelSine) {
    for (const double z : {-half_length, half_length}) {
      f.Add(Eigen::Vector3d(radius * radial.x(), radius * radial.y(), z));
    }
  } else {
    f.Add(Eigen::Vector3d(radius * radial.x(), radius * radial.y(), cap_z));
  }
  return f;
}

// A capsule's surface along u: its segment's feature moved out by the radius.
Feature CapsuleFeature(double radius, double half_length, const Eigen::Vector3d& u) {
  Feature f;
  if (std::abs(u.z()) < kParallelSine) {
    f.Add(Eigen::Vector3d(0.0, 0.0, -half_length) + radius * u);
    f.Add(Eigen::Vector3d(0.0, 0.0, half_length) + radius * u);
  } else {
    f.Add(Eigen::Vector3d(0.0, 0.0, u.z() < 0.0 ? -half_length : half_length) + radius * u);
  }
  return f;
}

// The face whose normal is nearest u if within the parallel angle; else the farthest vertex,
// with the next farthest as an edge when the two are level along u to the parallel angle.
Feature HullFeature(const ConvexHull& hull, const Eigen::Vector3d& u) {
  Feature f;
  int best_face = 0;
  double best_cos = -1.0;
  for (size_t i = 0; i < hull.normals.size(); ++i) {
    const double c = hull.normals[i].dot(u);
    if (c > best_cos) {
      best_cos = c;
      best_face = static_cast<int>(i);
    }
  }
  if (best_cos >= kParallelCosine) {
    const std::vector<int>& face = hull.faces[best_face];
    const int n = static_cast<int>(face.size());
    const int count = std::min(n, kMaxFeatureVertices);
    for (int k = 0; k < count; ++k) f.Add(hull.vertices[face[k * n / count]]);
    f.face_normal = hull.normals[best_face];
    return f;
  }
  int first = 0, second = -1;
  for (int i = 1; i < static_cast<int>(hull.vertices.size()); ++i) {
    const double h = u.dot(hull.vertices[i]);
    if (h > u.dot(hull.vertices[first])) {
      second = first;
      first = i;
    } else if (second < 0 || h > u.dot(hull.vertices[second])) {
      second = i;
    }
  }
  const Eigen::Vector3d& v1 = hull.vertices[first];
  f.Add(v1);
  const Eigen::Vector3d& v2 = hull.vertices[second];
  if (u.dot(v1 - v2) <= kParallelSine * (v1 - v2).norm()) f.Add(v2);
  return f;
}

// The feature of a shape at X_WS farthest along the unit direction d (W), in W.
Feature SupportFeature(const Shape& s, const Pose& X_WS, const Eigen::Vector3d& d) {
  const Eigen::Vector3d u = X_WS.rotation.transpose() * d;
  Feature f;
  switch (s.type) {
    case ShapeType::kBox:
      f = BoxFeature(0.5 * s.size, u);
      break;
    case ShapeType::kCylinder:
      f = CylinderFeature(s.radius, 0.5 * s.length, u);
      break;
    case ShapeType::kCapsule:
      f = CapsuleFeature(s.radius, 0.5 * s.length, u);
      break;
    case ShapeType::kConvexMesh:
      f = HullFeature(*s.hull, u);
      break;
    case ShapeType::kSphere:
    case ShapeType::kPlane:
      f.Add(Eigen::Vector3d::Zero());  // closed forms: collision.cc sends these elsewhere
      break;
  }
  for (int i = 0; i < f.count; ++i) f.v[i] = X_WS.TransformPoint(f.v[i]);
  f.face_normal = X_WS.rotation * f.face_normal;
  return f;
}

// The reference face, seen along the pair's normal n: its plane (a vertex and the outward
// normal) and whether it belongs to a (then the other shape lies beyond it along n) or to b.
struct Reference {
  Eigen::Vector3d point, normal;
  bool of_a;

  // Depth of a point p of the other shape's surface below the reference face, measured along
  // n, and the contact point midway between p and the face.
  ContactPoint At(const Eigen::Vector3d& p, const Eigen::Vector3d& n) const {
    const double t = normal.dot(of_a ? point - p : p - point) / normal.dot(n);
    return {p + (of_a ? 0.5 : -0.5) * t * n, t};
  }
};

// Keeps the part of a closed polygon behind the plane s . (x - o) <= 0 (Sutherland-Hodgman).
int ClipPolygon(const std::array<Eigen::Vector3d, kMaxClippedVertices>& in, int n,
                const Eigen::Vector3d& o, const Eigen::Vector3d& s,
                std::array<Eigen::Vector3d, kMaxClippedVertices>* out) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d& p = in[i];
    const Eigen::Vector3d& q = in[(i + 1) % n];
    const double dp = s.dot(p - o), dq = s.dot(q - o);
    if (dp <= 0.0) (*out)[m++] = p;
    if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
      (*out)[m++] = p + (dp / (dp - dq)) * (q - p);
    }
  }
  return m;
}

// The incident feature (a polygon or an edge) clipped by the side planes of the reference
// face's polygon, as candidates below the face.
void ClipAgainstFace(const Feature& face, const Feature& incident, const Reference& ref,
                     const Eigen::Vector3d& n, ContactCandidates* c) {
  // Side planes point out of the polygon when its vertices run counter-clockwise about the
  // outward normal; thinned mesh faces and box faces are ordered either way, so check.
  Eigen::Vector3d area = Eigen::Vector3d::Zero();
  for (int i = 0; i < face.count; ++i) area += face.v[i].cross(face.v[(i + 1) % face.count]);
  const double orientation = area.dot(face.face_normal) < 0.0 ? -1.0 : 1.0;
  if (incident.count == 2) {
    // An edge: Cyrus-Beck, the parameter range of the edge inside every side plane.
    const Eigen::Vector3d& p = incident.v[0];
    const Eigen::Vector3d& q = incident.v[1];
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < face.count && t0 <= t1; ++i) {
      const Eigen::Vector3d& o = face.v[i];
      const Eigen::Vector3d s =
          orientation * (face.v[(i + 1) % face.count] - o).cross(face.face_normal);
      const double dp = s.dot(p - o), dq = s.dot(q - o);
      if (dp > 0.0 && dq > 0.0) return;
      if (dp > 0.0) t0 = std::max(t0, dp / (dp - dq));
      if (dq > 0.0) t1 = std::min(t1, dp / (dp - dq));
    }
    if (t0 > t1) return;
    for (const double t : {t0, t1}) {
      const ContactPoint cp = ref.At(p + t * (q - p), n);
      c->Add(cp.position, cp.depth);
    }
    return;
  }
  std::array<Eigen::Vector3d, kMaxClippedVertices> poly, clipped;
  std::copy_n(incident.v.begin(), incident.count, poly.begin());
  int m = incident.count;
  for (int i = 0; i < face.count && m > 0; ++i) {
    const Eigen::Vector3d& o = face.v[i];
    const Eigen::Vector3d s =
        orientation * (face.v[(i + 1) % face.count] - o).cross(face.face_normal);
    m = ClipPolygon(poly, m, o, s, &clipped);
    poly = clipped;
  }
  for (int i = 0; i < m; ++i) {
    const ContactPoint cp = ref.At(poly[i], n);
    c->Add(cp.position, cp.depth);
  }
}

// Two parallel edges (a's and b's, both across the normal): b's edge within the slab spanned
// by a's, each end's depth measured to a's edge along the normal.
void ClipEdges(const Feature& ea, const Feature& eb, const Eigen::Vector3d& n,
               ContactCandidates* c) {
  const Eigen::Vector3d& r0 = ea.v[0];
  const Eigen::Vector3d e = ea.v[1] - r0;
  const double e2 = e.squaredNorm();
  const double s0 = e.dot(eb.v[0] - r0) / e2, s1 = e.dot(eb.v[1] - r0) / e2;
  if (s0 == s1) return;
  const double lo = std::max(0.0, std::min(s0, s1)), hi = std::min(1.0, std::max(s0, s1));
  for (const double s : {lo, hi}) {
    if (hi < lo) break;
    const Eigen::Vector3d pb = eb.v[0] + ((s - s0) / (s1 - s0)) * (eb.v[1] - eb.v[0]);
    const Eigen::Vector3d pa = r0 + s * e;
    c->Add(0.5 * (pa + pb), n.dot(pa - pb));
  }
}

// Moves g to the normal n (unit, a towards b) when the shapes overlap less along it than
// along g's normal: every direction's overlap bounds the depth from above, so the lesser is
// the better answer. The witnesses keep their position across the normal.
void ImproveNormal(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb,
                   const Eigen::Vector3d& n, PairGeometry* g) {
  const double overlap = OverlapAlong(a, X_Wa, b, X_Wb, n);
  if (!(overlap < -g->distance)) return;
  const Eigen::Vector3d mid = 0.5 * (g->point_a + g->point_b);
  const Eigen::Vector3d across = mid - n.dot(mid) * n;
  g->distance = -overlap;
  g->normal = n;
  g->point_a = across + n.dot(SupportPoint(a, X_Wa, n)) * n;
  g->point_b = g->point_a - overlap * n;
  g->points[0] = {0.5 * (g->point_a + g->point_b), overlap};
}

// Replaces g's single deepest point by the clipped features' points when the features are
// faces or parallel edges. A face contact's normal is the reference face's: EPA converges to
// it only to its tolerance (on a line contact, as a cylinder lying on a box, that tilts the
// normal along the line and deepens the overlap measurably), the face gives it exactly.
void AddFeatureContacts(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb,
                        PairGeometry* g) {
  const Feature fa = SupportFeature(a, X_Wa, g->normal), fb = SupportFeature(b, X_Wb, -g->normal);
  if (fa.count == 1 || fb.count == 1) return;
  ContactCandidates c;
  if (fa.count == 2 && fb.count == 2) {
    const Eigen::Vector3d da = fa.v[1] - fa.v[0], db = fb.v[1] - fb.v[0];
    if (da.cross(db).norm() > kParallelSine * da.norm() * db.norm()) return;
    ClipEdges(fa, fb, g->normal, &c);
  } else {
    // The reference face is the one more nearly normal to n (a face rather than an edge).
    const bool a_is_ref =
        fa.count >= 3 && (fb.count < 3 || std::abs(fa.face_normal.dot(g->normal)) >=
                                              std::abs(fb.face_normal.dot(g->normal)));
    const Feature& face = a_is_ref ? fa : fb;
    ImproveNormal(a, X_Wa, b, X_Wb,
                  a_is_ref ? face.face_normal : Eigen::Vector3d(-face.face_normal), g);
    ClipAgainstFace(face, a_is_ref ? fb : fa, {face.v[0], face.face_normal, a_is_ref}, g->normal,
                    &c);
  }
  // The deepest clipped point is the witnesses' up to EPA's accuracy; if the clipping lost it,
  // the witnesses' point is added. Depths are capped at the pair's, which is the deepest.
  const double depth = -g->distance;
  int deepest = -1;
  for (int i = 0; i < c.count; ++i) {
    c.points[i].depth = std::min(c.points[i].depth, depth);
    if (deepest < 0 || c.points[i].depth > c.points[deepest].depth) deepest = i;
  }
  if (deepest >= 0 && c.points[deepest].depth >= 0.999 * depth) {
    c.points[deepest].depth = depth;
  } else {
    c.Add(g->points[0].position, depth);
  }
  SelectContactPoints(c, g);
}

}  // namespace

PairGeometry CollideConvex(const Shape& a, const Pose& X_Wa, const Shape& b, const Pose& X_Wb) {
  // A capsule is its segment inflated by its radius. While the segments (the cores) stay
  // apart, the pair's distance is their distance less the radii, along the cores' normal:
  // GJK's distance, exact and smooth as the bodies move, where EPA's depth and normal are
  // only as good as its tolerance (and a polytope's far face may fool it). A finger's capsule
  // pressing a box, a cylinder or a mesh is this case; a core inside the other shape goes to
  // EPA with the whole shapes.
  if (a.type == ShapeType::kCapsule || b.type == ShapeType::kCapsule) {
    Shape core_a = a, core_b = b;
    const double ra = a.type == ShapeType::kCapsule ? a.radius : 0.0;
    const double rb = b.type == ShapeType::kCapsule ? b.radius : 0.0;
    core_a.radius -= ra;
    core_b.radius -= rb;
    const SignedDistance core = GjkSignedDistance(core_a, X_Wa, core_b, X_Wb);
    if (core.distance > 0.0) {
      PairGeometry g =
          SinglePointGeometry(core.distance - ra - rb, core.normal, core.point_a + ra * core.normal,
                              core.point_b - rb * core.normal);
      if (g.distance < 0.0) AddFeatureContacts(a, X_Wa, b, X_Wb, &g);
      return g;
    }
  }
  const SignedDistance d = GjkSignedDistance(a, X_Wa, b, X_Wb);
  PairGeometry g = SinglePointGeometry(d.distance, d.normal, d.point_a, d.point_b);
  if (g.distance < 0.0) AddFeatureContacts(a, X_Wa, b, X_Wb, &g);
  return g;
}

}  // namespace twinblocks::contact::internal
