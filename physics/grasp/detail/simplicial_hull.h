#pragma once

// A convex polytope in 6-D that grows one point at a time, for EpsilonSolver: its boundary is
// kept as simplicial facets (six vertices each) that know their neighbours across each ridge,
// so that the facets a new point sees are found by walking from one of them, and the hole
// they leave is closed by coning its rim (the horizon) to the point: the beneath-beyond
// method (Preparata & Shamos 1985, "Computational Geometry: An Introduction", and Edelsbrunner
// 1987, "Algorithms in Combinatorial Geometry"). Every array is sized by the constructor and
// reused: nothing touches the heap afterwards, and a hull that would need more facets than
// the pool holds says so instead of growing.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace twinblocks::grasp::detail {

class SimplicialHull {
 public:
  using Vector6d = Eigen::Matrix<double, 6, 1>;
  /// The points the hull is made of (6 x N): vertices are their column indices.
  using Points = Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>;

  struct Facet {
    std::array<int, 6> vertices{};
    /// neighbors[k]: the facet across the ridge made of every vertex but vertices[k].
    std::array<int, 6> neighbors{};
    Vector6d normal = Vector6d::Zero();  ///< outward unit normal
    double offset = 0.0;                 ///< normal . x = offset on the facet's hyperplane
    /// Counts the times the slot was freed, so that a reference kept elsewhere (a priority
    /// queue's entry) can tell the facet it named from a later one in the same slot.
    std::uint32_t generation = 0;
    bool alive = false;
    bool visible = false;  ///< seen by the point being added (valid when visit == round)
    int visit = 0;         ///< the last AddPoint round that tested the facet
  };

  enum class Growth {
    kGrown,
    kPoolExhausted,  ///< the new facets would not fit in the pool: the hull is unusable
    kBrokenHorizon,  ///< rounding made the visible region's rim not a closed surface
  };

  /// @param max_facets  the most facets alive at once (>= 7).
  explicit SimplicialHull(int max_facets);

  /// Empties the hull and makes it the simplex of seven affinely independent columns of
  /// `points`, their centroid the interior point that orients every facet from then on.
  Growth StartSimplex(const Points& points, const std::array<int, 7>& simplex);

  /// Adds column `point`, which lies beyond facet `seed`: the facets the point sees (it lies
  /// more than `tolerance` beyond their hyperplanes) are found by walking across ridges from
  /// `seed` and removed, and each ridge of their rim makes a new facet with the point. A new
  /// facet's hyperplane passes through its vertices to within `residual_tolerance`.
  Growth AddPoint(const Points& points, int point, int seed, double tolerance,
                  double residual_tolerance);

  const Facet& facet(int f) const { return facets_[f]; }
  /// Slots 0 .. capacity() - 1, alive or not.
  int capacity() const { return static_cast<int>(facets_.size()); }
  /// The slots taken since StartSimplex are 0 .. slots_used() - 1 (alive or freed); the others
  /// hold facets of earlier hulls.
  int slots_used() const { return num_used_; }
  /// The facets the last StartSimplex or AddPoint made.
  std::span<const int> new_facets() const { return {new_facets_.data(), num_new_}; }
  int num_facets() const { return num_alive_; }
  int peak_facets() const { return peak_alive_; }
  /// Facets made since the last StartSimplex (its 7 included), the measure of the work.
  int num_facets_made() const { return num_made_; }
  /// Of them, those whose plane needed QR (diagnostics).
  int num_plane_fallbacks() const { return num_plane_fallbacks_; }

  /// How far x lies beyond facet f's hyperplane (negative: on the inner side).
  double Height(int f, const Vector6d& x) const {
    return facets_[f].normal.dot(x) - facets_[f].offset;
  }

 private:
  /// A ridge of a new facet through the new point, named by its four other vertices (a face
  /// of the rim) as a sortable key: exactly two new facets share it, and sorting pairs them.
  struct RimRidge {
    std::uint64_t key = 0;
    int facet = 0;
    int slot = 0;
  };

  /// Links the new facets across the first num_ridges rim ridges; false when they do not
  /// pair up.
  bool PairBySorting(int num_ridges);
  bool PairByTable(int num_ridges);
  int TakeSlot();
  void FreeSlot(int f);
  /// The hyperplane through facet f's vertices, oriented away from the interior point.
  void SetPlane(const Points& points, int f);
  /// Sets facet f's plane to the unit `normal` (oriented away from the interior point) and
  /// the mean offset of its vertices if they all lie within `residual_tolerance` of it;
  /// false (and nothing set) otherwise.
  bool TryPlane(const Points& points, int f, const Vector6d& normal, double residual_tolerance);

  std::vector<Facet> facets_;
  std::vector<int> free_;  // a stack of free slots, free_[0 .. num_free_)
  int num_free_ = 0;
  int num_used_ = 0;  // slots num_used_ .. capacity() - 1 were never taken since StartSimplex
  int num_alive_ = 0;
  int peak_alive_ = 0;
  int round_ = 0;
  int num_plane_fallbacks_ = 0;
  int num_made_ = 0;
  Vector6d interior_ = Vector6d::Zero();
  // Scratch of AddPoint.
  std::vector<int> stack_;
  std::vector<int> visible_;
  std::vector<std::array<int, 2>> horizon_;  // (visible facet, the slot of its rim neighbour)
  std::vector<int> new_facets_;
  std::size_t num_new_ = 0;
  std::vector<RimRidge> rim_ridges_;
  std::vector<RimRidge> ridge_table_;  // empty between calls
  std::vector<int> table_used_;
};

}  // namespace twinblocks::grasp::detail
