#pragma once

// The L1 Ferrari-Canny epsilon (Ferrari & Canny 1992, "Planning optimal grasps") without
// building the whole hull of the primitive wrenches, and without touching the heap once the
// solver exists: for a block that rates a grasp at every step of a simulation, where
// CalcGraspQuality (qhull; 18 ms for 5 hard fingers with 8-edge cones, 106 ms for 13) is far
// too slow and allocates.
//
// epsilon = min over unit u of h(u), h(u) = max_j w_j . u the support function of the
// primitive wrenches w_j: the distance from the origin to the boundary of their hull when the
// origin is inside it. The solver grows an inner polytope P = hull(S), S a subset of the
// wrenches, from the facet of P nearest the origin (the expanding polytope algorithm of
// van den Bergen 2001, "Proximity queries and penetration depth computation on 3D game
// objects", here in 6-D): while the support point w* along that facet's normal u lies beyond
// it, w* joins S; once it does not, the facet supports every wrench, and since
// min over P's facets <= epsilon <= that facet's offset, epsilon is that offset. It adds at
// most N points and usually far fewer. docs/grasp-analysis.md has the details and costs.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "physics/grasp/detail/simplicial_hull.h"

namespace twinblocks::grasp {

enum class EpsilonStatus {
  kSolved,  ///< force_closure and epsilon are the answer
  /// The wrenches span fewer than 6 dimensions (or are fewer than 7): not force closure.
  kFlat,
  /// The inner polytope needed more facets than the solver holds: no answer (make the solver
  /// with a larger max_facets).
  kFacetPoolExhausted,
  /// Rounding broke the polytope's surface (never seen in the tests): no answer.
  kNumericalFailure,
  kTooManyPoints,  ///< more points than the solver was made for: no answer
};

/// A short name of the status ("solved", "flat", "facet pool exhausted", ...).
const char* EpsilonStatusName(EpsilonStatus status);

struct EpsilonResult {
  EpsilonStatus status = EpsilonStatus::kSolved;
  /// The origin is strictly inside the hull: epsilon > 1e-10 times the largest |w_j|, the
  /// threshold of CalcGraspQuality.
  bool force_closure = false;
  double epsilon = 0.0;  ///< as CalcGraspQuality's: 0 when not force closure
  /// The outward unit normal of the hull's facet nearest the origin, the wrench direction the
  /// grasp resists least; zero when not force closure.
  Eigen::Matrix<double, 6, 1> weakest_direction = Eigen::Matrix<double, 6, 1>::Zero();
  int points_added = 0;  ///< points added to the first simplex (the iterations)
  int peak_facets = 0;   ///< the most facets the inner polytope had at once
  int facets_made = 0;   ///< facets made in all (the measure of the work)
  /// New facets whose plane was computed by QR, their neighbours' planes not being accurate
  /// enough (diagnostics: the fast path's misses).
  int plane_fallbacks = 0;
};

/// Exact L1 epsilon of primitive wrenches. Make one per loop (set-up allocates everything),
/// then call Solve as often as needed: Solve does not touch the heap.
class EpsilonSolver {
 public:
  /// @param max_points  the most primitive wrenches a call takes (contacts x generators),
  ///        7 .. kMaxHullPoints.
  /// @param max_facets  the most facets of the inner polytope alive at once; 0 for the
  ///        default, DefaultMaxFacets(max_points).
  /// @throws std::invalid_argument on sizes out of range.
  explicit EpsilonSolver(int max_points, int max_facets = 0);

  /// The default facet pool, 2048 + 64 max_points (about 270 bytes each): the largest peak
  /// over the 360 random grasps of the tests (up to 13 soft fingers with 8-edge cones, 208
  /// points) was 0.47 of it.
  static int DefaultMaxFacets(int max_points);

  /// The epsilon of the columns of `points` (6 x n, n <= max_points), e.g. from
  /// FillPrimitiveWrenches. Pass a matrix or a block of one (a product or other expression
  /// would be evaluated into a temporary, on the heap).
  EpsilonResult Solve(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& points);

  int max_points() const { return max_points_; }
  int max_facets() const { return hull_.capacity(); }

 private:
  using Points = detail::SimplicialHull::Points;
  /// An entry of the priority queue of facets by offset, smallest first. A facet removed from
  /// the polytope leaves its entry behind, recognised by the generation.
  struct QueueEntry {
    double offset = 0.0;
    int facet = 0;
    std::uint32_t generation = 0;
  };

  /// Seven affinely independent points by greedy largest volume (each the farthest from the
  /// flat through the ones before); false when the points are flatter than flat_tolerance.
  bool ChooseSimplex(const Points& points, double flat_tolerance, std::array<int, 7>* simplex);
  void Push(double offset, int facet);
  /// The valid entry with the smallest offset; false when the queue is empty.
  bool PopNearest(QueueEntry* entry);
  /// Queues the facets the hull's last growth made.
  void QueueNewFacets();

  int max_points_ = 0;
  detail::SimplicialHull hull_;
  std::vector<unsigned char> in_polytope_;  // per point
  // Per facet slot: its offset in the queue is its support value (final); it has an entry;
  // the offset of that entry.
  std::vector<unsigned char> settled_;
  std::vector<unsigned char> queued_;
  std::vector<double> queue_offset_;
  std::vector<QueueEntry> queue_;  // a binary heap in queue_[0 .. queue_size_)
  int queue_size_ = 0;
};

}  // namespace twinblocks::grasp
