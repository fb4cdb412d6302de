#pragma once

// Closest-point routines of Ericson, "Real-Time Collision Detection" (2005), chapter 5, which
// the closed-form pair tests are built from. Inline and allocation-free: they run in the
// simulation loop.

#include <Eigen/Core>
#include <algorithm>

namespace twinblocks::contact::internal {

/// The point of segment [a, b] nearest to p (Ericson 5.1.2).
inline Eigen::Vector3d ClosestPointOnSegment(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                             const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double len2 = ab.squaredNorm();
  if (len2 == 0.0) return a;
  return a + std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) * ab;
}

/// The nearest points c1 = p1 + s (q1 - p1) and c2 = p2 + t (q2 - p2) of segments [p1, q1] and
/// [p2, q2] (Ericson 5.1.9: minimize |c1 - c2|^2 over s, t in [0, 1], clamping s, then t,
/// then s again). Degenerate segments (points) are allowed.
inline void ClosestPointsOfSegments(const Eigen::Vector3d& p1, const Eigen::Vector3d& q1,
                                    const Eigen::Vector3d& p2, const Eigen::Vector3d& q2,
                                    Eigen::Vector3d* c1, Eigen::Vector3d* c2) {
  const Eigen::Vector3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a == 0.0 && e == 0.0) {
    // Both are points.
  } else if (a == 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e == 0.0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;  // >= 0; 0 when parallel: any s works, take s = 0
      s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  *c1 = p1 + s * d1;
  *c2 = p2 + t * d2;
}

/// The point of triangle (a, b, c) nearest to p, by the Voronoi regions of its vertices, edges
/// and face (Ericson 5.1.5).
inline Eigen::Vector3d ClosestPointOnTriangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                              const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  }
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace twinblocks::contact::internal
