#include "physics/grasp/epsilon_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "physics/grasp/grasp_quality.h"

namespace twinblocks::grasp {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// Fractions of the largest |w_j| (the scale).
// The origin is strictly inside when epsilon exceeds this (CalcGraspQuality's threshold); the
// points are flat when they all lie within it of a hyperplane (then epsilon cannot exceed it).
constexpr double kInsideFraction = 1e-10;
// A point is beyond a facet, and the facet is removed when the point is added, when it lies
// more than this beyond the facet's hyperplane: well above the rounding of w . u - b (about
// 1e-15), so that points on a facet (an edge wrench in a facet of the hull is common: each
// contact's edges lie in one 2-D plane) leave it in place.
constexpr double kVisibleFraction = 1e-13;
// The nearest facet is a facet of the hull of all the points when no point lies more than
// this beyond it; larger than kVisibleFraction, so that a point within it of the facet is
// never added only to be seen by nothing. It bounds epsilon's error (absolute, times scale).
constexpr double kSupportFraction = 1e-12;
// A new facet's plane, when made from its neighbours' (simplicial_hull.cc), must pass this
// close to its vertices; QR's passes within rounding.
constexpr double kPlaneResidualFraction = 1e-14;

// The heap order: the smallest offset on top.
constexpr auto kLater = [](const auto& a, const auto& b) { return a.offset > b.offset; };

}  // namespace

const char* EpsilonStatusName(EpsilonStatus status) {
  switch (status) {
    case EpsilonStatus::kSolved:
      return "solved";
    case EpsilonStatus::kFlat:
      return "flat";
    case EpsilonStatus::kFacetPoolExhausted:
      return "facet pool exhausted";
    case EpsilonStatus::kNumericalFailure:
      return "numerical failure";
    case EpsilonStatus::kTooManyPoints:
      return "too many points";
  }
  return "unknown";
}

int EpsilonSolver::DefaultMaxFacets(int max_points) { return 2048 + 64 * max_points; }

EpsilonSolver::EpsilonSolver(int max_points, int max_facets)
    : max_points_(max_points),
      hull_(max_facets > 0 ? max_facets : DefaultMaxFacets(std::max(max_points, 7))) {
  if (max_points < 7 || max_points > kMaxHullPoints) {
    throw std::invalid_argument("grasp: an epsilon solver for " + std::to_string(max_points) +
                                " points; expected 7 to " + std::to_string(kMaxHullPoints));
  }
  in_polytope_.resize(static_cast<std::size_t>(max_points));
  const auto facets = static_cast<std::size_t>(hull_.capacity());
  settled_.resize(facets);
  queued_.resize(facets);
  queue_offset_.resize(facets);
  // Every alive facet has one valid entry; the rest is room for stale ones before a clean-up.
  queue_.resize(2 * static_cast<std::size_t>(hull_.capacity()));
}

void EpsilonSolver::Push(double offset, int facet) {
  if (queue_size_ == static_cast<int>(queue_.size())) {
    // Full of stale entries: keep one per queued facet (at most half the room).
    queue_size_ = 0;
    for (int f = 0; f < hull_.slots_used(); ++f) {
      if (queued_[f] && hull_.facet(f).alive) {
        queue_[queue_size_++] = {queue_offset_[f], f, hull_.facet(f).generation};
      }
    }
    std::make_heap(queue_.begin(), queue_.begin() + queue_size_, kLater);
  }
  queued_[facet] = 1;
  queue_offset_[facet] = offset;
  queue_[queue_size_++] = {offset, facet, hull_.facet(facet).generation};
  std::push_heap(queue_.begin(), queue_.begin() + queue_size_, kLater);
}

bool EpsilonSolver::PopNearest(QueueEntry* entry) {
  while (queue_size_ > 0) {
    std::pop_heap(queue_.begin(), queue_.begin() + queue_size_, kLater);
    *entry = queue_[--queue_size_];
    const detail::SimplicialHull::Facet& facet = hull_.facet(entry->facet);
    if (facet.alive && facet.generation == entry->generation) {
      queued_[entry->facet] = 0;
      return true;
    }
  }
  return false;
}

void EpsilonSolver::QueueNewFacets() {
  // Cleared first: a slot may still carry the flag of a facet freed before (Push's clean-up
  // must not take a new facet before it is pushed).
  for (const int f : hull_.new_facets()) {
    queued_[f] = 0;
    settled_[f] = 0;
  }
  for (const int f : hull_.new_facets()) {
    Push(hull_.facet(f).offset, f);
  }
}

bool EpsilonSolver::ChooseSimplex(const Points& points, double flat_tolerance,
                                  std::array<int, 7>* simplex) {
  const int n = static_cast<int>(points.cols());
  // The first point: the farthest from the origin; then each next one the farthest from the
  // flat through those chosen, measured in an orthonormal basis of the flat's directions.
  int first = 0;
  for (int j = 1; j < n; ++j) {
    if (points.col(j).squaredNorm() > points.col(first).squaredNorm()) first = j;
  }
  (*simplex)[0] = first;
  const Vector6d origin = points.col(first);
  Eigen::Matrix<double, 6, 6> basis;
  for (int k = 0; k < 6; ++k) {
    double best = -1.0;
    int chosen = -1;
    Vector6d direction = Vector6d::Zero();
    for (int j = 0; j < n; ++j) {
      Vector6d r = points.col(j) - origin;
      for (int m = 0; m < k; ++m) r -= basis.col(m).dot(r) * basis.col(m);
      const double distance = r.norm();
      if (distance > best) {
        best = distance;
        chosen = j;
        direction = r;
      }
    }
    if (!(best > flat_tolerance)) {
      return false;
    }
    // Once more against the basis: the first pass leaves rounding along it.
    for (int m = 0; m < k; ++m) direction -= basis.col(m).dot(direction) * basis.col(m);
    basis.col(k) = direction.normalized();
    (*simplex)[k + 1] = chosen;
  }
  return true;
}

EpsilonResult EpsilonSolver::Solve(
    const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& points) {
  EpsilonResult result;
  const int n = static_cast<int>(points.cols());
  if (n > max_points_) {
    result.status = EpsilonStatus::kTooManyPoints;
    return result;
  }
  double scale = 0.0;
  for (int j = 0; j < n; ++j) scale = std::max(scale, points.col(j).norm());
  std::array<int, 7> simplex{};
  if (n < 7 || scale == 0.0 || !ChooseSimplex(points, kInsideFraction * scale, &simplex)) {
    result.status = EpsilonStatus::kFlat;
    return result;
  }
  const double inside = kInsideFraction * scale;
  std::fill(in_polytope_.begin(), in_polytope_.begin() + n, 0);
  for (const int v : simplex) in_polytope_[v] = 1;
  queue_size_ = 0;
  hull_.StartSimplex(points, simplex);
  QueueNewFacets();
  QueueEntry nearest;
  while (PopNearest(&nearest)) {
    const int f = nearest.facet;
    const Vector6d u = hull_.facet(f).normal;
    double support = -std::numeric_limits<double>::infinity();
    int farthest = 0;
    for (int j = 0; j < n; ++j) {
      const double h = points.col(j).dot(u);
      if (h > support) {
        support = h;
        farthest = j;
      }
    }
    result.peak_facets = hull_.peak_facets();
    result.plane_fallbacks = hull_.num_plane_fallbacks();
    result.facets_made = hull_.num_facets_made();
    // Every point lies within `inside` of a hyperplane through the origin or behind it: the
    // origin is not strictly inside, whatever the nearest facet turns out to be.
    if (support <= inside) {
      return result;
    }
    if (settled_[f] || support <= nearest.offset + kSupportFraction * scale) {
      // A facet of the hull of all the points, and the nearest of P's: epsilon.
      if (nearest.offset > inside) {
        result.force_closure = true;
        result.epsilon = nearest.offset;
        result.weakest_direction = u;
      }
      return result;
    }
    if (in_polytope_[farthest]) {
      // A vertex of P beyond one of P's facets by more than rounding: the facet is tilted by
      // rounding on a nearly flat ridge. Its true support value is an upper bound of epsilon
      // and the facet's place in the order; it is final.
      settled_[f] = 1;
      Push(support, f);
      continue;
    }
    const detail::SimplicialHull::Growth growth = hull_.AddPoint(
        points, farthest, f, kVisibleFraction * scale, kPlaneResidualFraction * scale);
    if (growth != detail::SimplicialHull::Growth::kGrown) {
      result.status = growth == detail::SimplicialHull::Growth::kPoolExhausted
                          ? EpsilonStatus::kFacetPoolExhausted
                          : EpsilonStatus::kNumericalFailure;
      result.peak_facets = hull_.peak_facets();
      return result;
    }
    in_polytope_[farthest] = 1;
    ++result.points_added;
    QueueNewFacets();
  }
  result.status = EpsilonStatus::kNumericalFailure;  // no facet left: only rounding does that
  return result;
}

}  // namespace twinblocks::grasp
