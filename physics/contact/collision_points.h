#pragma once

// Choosing a pair's contact points among more candidates than a PairGeometry holds (box
// corners below a plane, a clipped face, a mesh's vertices below a plane): the deepest first,
// then the candidates that spread the points widest over the contact patch, because its
// extreme points are what carry the moments (the same reduction as in Gregorius, "Robust
// Contact Creation for Physics Simulations", GDC 2015, and MuJoCo's box-box).

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <limits>

#include "physics/contact/collision.h"

namespace twinblocks::contact::internal {

/// Candidate contact points, in a fixed buffer (no heap allocation).
struct ContactCandidates {
  static constexpr int kCapacity = 48;
  int count = 0;
  std::array<ContactPoint, kCapacity> points;

  /// Adds a point if it is inside the overlap (depth > 0) and there is room.
  void Add(const Eigen::Vector3d& position, double depth) {
    if (depth > 0.0 && count < kCapacity) points[count++] = {position, depth};
  }
};

/// Fills g->points with at most kMaxContactPoints of the n candidates candidate(i) (a
/// ContactPoint; those with depth <= 0 are skipped): the deepest, then repeatedly the one
/// farthest, in the plane normal to g->normal, from all chosen so far (farthest-point
/// sampling), until none is farther than 1e-10 m (duplicates).
template <typename CandidateAt>
void SelectContactPoints(int n, const CandidateAt& candidate, PairGeometry* g) {
  g->num_points = 0;
  int deepest = -1;
  double max_depth = 0.0;
  for (int i = 0; i < n; ++i) {
    const double depth = candidate(i).depth;
    if (depth > max_depth) {
      max_depth = depth;
      deepest = i;
    }
  }
  if (deepest < 0) return;
  g->points[g->num_points++] = candidate(deepest);
  const Eigen::Vector3d& normal = g->normal;
  const auto across2 = [&normal](const Eigen::Vector3d& p, const Eigen::Vector3d& q) {
    const Eigen::Vector3d r = p - q;
    return (r - r.dot(normal) * normal).squaredNorm();
  };
  // Each candidate's squared distance to the nearest point chosen, brought up to date with
  // each new choice; with more candidates than this holds (a mesh's vertices), recomputed
  // from all points chosen.
  constexpr int kCached = 64;
  std::array<double, kCached> nearest2;
  nearest2.fill(std::numeric_limits<double>::infinity());
  constexpr double kDuplicate2 = 1e-20;  // m^2
  while (g->num_points < kMaxContactPoints) {
    const Eigen::Vector3d& last = g->points[g->num_points - 1].position;
    int best = -1;
    double best_d2 = kDuplicate2;
    for (int i = 0; i < n; ++i) {
      const ContactPoint c = candidate(i);
      if (c.depth <= 0.0) continue;
      double d2;
      if (n <= kCached) {
        d2 = nearest2[i] = std::min(nearest2[i], across2(c.position, last));
      } else {
        d2 = std::numeric_limits<double>::infinity();
        for (int k = 0; k < g->num_points && d2 > best_d2; ++k) {
          d2 = std::min(d2, across2(c.position, g->points[k].position));
        }
      }
      if (d2 > best_d2) {
        best_d2 = d2;
        best = i;
      }
    }
    if (best < 0) return;
    g->points[g->num_points++] = candidate(best);
  }
}

/// SelectContactPoints over a candidate buffer.
inline void SelectContactPoints(const ContactCandidates& c, PairGeometry* g) {
  SelectContactPoints(
      c.count, [&c](int i) -> const ContactPoint& { return c.points[i]; }, g);
}

}  // namespace twinblocks::contact::internal
