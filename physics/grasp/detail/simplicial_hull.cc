#include "physics/grasp/detail/simplicial_hull.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace twinblocks::grasp::detail {
namespace {

// The four vertex indices (each < 2^16) sorted and packed into one integer.
std::uint64_t RidgeKey(int a, int b, int c, int d) {
  std::array<int, 4> v{a, b, c, d};
  // A sorting network of four: no library sort for four numbers.
  if (v[0] > v[1]) std::swap(v[0], v[1]);
  if (v[2] > v[3]) std::swap(v[2], v[3]);
  if (v[0] > v[2]) std::swap(v[0], v[2]);
  if (v[1] > v[3]) std::swap(v[1], v[3]);
  if (v[1] > v[2]) std::swap(v[1], v[2]);
  std::uint64_t key = 0;
  for (const int x : v) {
    key = (key << 16) | static_cast<std::uint64_t>(x);
  }
  return key;
}

}  // namespace

SimplicialHull::SimplicialHull(int max_facets) {
  if (max_facets < 7) {
    throw std::invalid_argument("grasp: a 6-D hull needs room for at least 7 facets; got " +
                                std::to_string(max_facets));
  }
  const auto n = static_cast<std::size_t>(max_facets);
  facets_.resize(n);
  free_.resize(n);
  stack_.resize(n);
  visible_.resize(n);
  horizon_.resize(n);
  new_facets_.resize(n);
  rim_ridges_.resize(5 * n);
  // A power of two, at least twice the ridges of most rims (a rim has at most 5 per facet).
  std::size_t table = 1024;
  while (table < 10 * n && table < 16384) table *= 2;
  ridge_table_.resize(table);
  table_used_.resize(table / 2);
}

int SimplicialHull::TakeSlot() {
  // A freed slot first (warm in the cache), else one never used since StartSimplex.
  const int f = num_free_ > 0 ? free_[--num_free_] : num_used_++;
  Facet& facet = facets_[f];
  facet.alive = true;
  facet.visible = false;
  facet.visit = round_;
  ++num_alive_;
  ++num_made_;
  peak_alive_ = std::max(peak_alive_, num_alive_);
  return f;
}

void SimplicialHull::FreeSlot(int f) {
  facets_[f].alive = false;
  ++facets_[f].generation;
  free_[num_free_++] = f;
  --num_alive_;
}

bool SimplicialHull::TryPlane(const Points& points, int f, const Vector6d& normal,
                              double residual_tolerance) {
  Facet& facet = facets_[f];
  std::array<double, 6> along{};
  double offset = 0.0;
  for (int k = 0; k < 6; ++k) {
    along[k] = normal.dot(points.col(facet.vertices[k]));
    offset += along[k];
  }
  offset /= 6.0;
  for (const double a : along) {
    if (!(std::abs(a - offset) <= residual_tolerance)) return false;
  }
  facet.normal = normal;
  facet.offset = offset;
  if (normal.dot(interior_) > offset) {
    facet.normal = -normal;
    facet.offset = -offset;
  }
  return true;
}

void SimplicialHull::SetPlane(const Points& points, int f) {
  Facet& facet = facets_[f];
  // The normal is orthogonal to the five edges from the first vertex: the last column of Q
  // in D = Q R. Householder QR keeps it orthogonal to them to rounding even when the facet is
  // thin (a vertex near the others' 4-flat), where a determinant formula loses digits.
  const Vector6d base = points.col(facet.vertices[0]);
  Eigen::Matrix<double, 6, 5> edges;
  for (int k = 1; k < 6; ++k) {
    edges.col(k - 1) = points.col(facet.vertices[k]) - base;
  }
  const Eigen::HouseholderQR<Eigen::Matrix<double, 6, 5>> qr(edges);
  TryPlane(points, f, qr.householderQ() * Vector6d::Unit(5),
           std::numeric_limits<double>::infinity());
}

bool SimplicialHull::PairBySorting(int num_ridges) {
  std::sort(rim_ridges_.begin(), rim_ridges_.begin() + num_ridges,
            [](const RimRidge& a, const RimRidge& b) { return a.key < b.key; });
  for (int r = 0; r < num_ridges; r += 2) {
    const RimRidge& a = rim_ridges_[r];
    const RimRidge& b = rim_ridges_[r + 1];
    if (a.key != b.key || (r + 2 < num_ridges && rim_ridges_[r + 2].key == a.key)) {
      return false;
    }
    facets_[a.facet].neighbors[a.slot] = b.facet;
    facets_[b.facet].neighbors[b.slot] = a.facet;
  }
  return true;
}

bool SimplicialHull::PairByTable(int num_ridges) {
  // Open addressing with linear probing; a slot's key 0 means empty (four distinct vertices
  // never pack to 0), facet -1 that the slot's pair was found. Only the slots used are
  // cleared afterwards.
  // The smallest power of two at least twice the ridges: a small table stays in the cache.
  std::size_t size = 64;
  while (size < 2 * static_cast<std::size_t>(num_ridges)) size *= 2;
  const std::size_t mask = size - 1;
  int num_used = 0;
  bool closed = true;
  for (int r = 0; r < num_ridges && closed; ++r) {
    const RimRidge& ridge = rim_ridges_[r];
    std::size_t i = (ridge.key * 0x9E3779B97F4A7C15ull >> 32) & mask;
    while (ridge_table_[i].key != 0 && ridge_table_[i].key != ridge.key) {
      i = (i + 1) & mask;
    }
    RimRidge& entry = ridge_table_[i];
    if (entry.key == 0) {
      entry = ridge;
      table_used_[num_used++] = static_cast<int>(i);
    } else if (entry.facet < 0) {
      closed = false;  // a third rim ridge on one face
    } else {
      facets_[entry.facet].neighbors[entry.slot] = ridge.facet;
      facets_[ridge.facet].neighbors[ridge.slot] = entry.facet;
      entry.facet = -1;
    }
  }
  for (int u = 0; u < num_used; ++u) {
    RimRidge& entry = ridge_table_[table_used_[u]];
    closed = closed && entry.facet < 0;  // every face found its pair
    entry = RimRidge{};
  }
  return closed;
}

SimplicialHull::Growth SimplicialHull::StartSimplex(const Points& points,
                                                    const std::array<int, 7>& simplex) {
  // Slots are handed out from 0 up: those of an earlier call are never looked at again.
  num_free_ = 0;
  num_used_ = 0;
  num_alive_ = 0;
  peak_alive_ = 0;
  num_plane_fallbacks_ = 0;
  num_made_ = 0;
  interior_.setZero();
  for (const int v : simplex) {
    interior_ += points.col(v);
  }
  interior_ /= 7.0;
  // Facet i leaves out vertex i; its neighbour across the ridge without vertex j is facet j.
  std::array<int, 7> ids{};
  for (int i = 0; i < 7; ++i) {
    ids[i] = TakeSlot();
  }
  for (int i = 0; i < 7; ++i) {
    Facet& facet = facets_[ids[i]];
    int slot = 0;
    for (int j = 0; j < 7; ++j) {
      if (j != i) {
        facet.vertices[slot] = simplex[j];
        facet.neighbors[slot] = ids[j];
        ++slot;
      }
    }
    SetPlane(points, ids[i]);
    new_facets_[i] = ids[i];
  }
  num_new_ = 7;
  return Growth::kGrown;
}

SimplicialHull::Growth SimplicialHull::AddPoint(const Points& points, int point, int seed,
                                                double tolerance, double residual_tolerance) {
  ++round_;
  num_new_ = 0;
  const Vector6d p = points.col(point);
  // The facets p sees form a connected region around the seed: walk it, noting each ridge
  // to a facet p does not see (the region's rim, or horizon).
  int num_stack = 0;
  int num_visible = 0;
  int num_horizon = 0;
  const int n = capacity();
  facets_[seed].visit = round_;
  facets_[seed].visible = true;
  stack_[num_stack++] = seed;
  while (num_stack > 0) {
    const int f = stack_[--num_stack];
    visible_[num_visible++] = f;
    for (int k = 0; k < 6; ++k) {
      const int g = facets_[f].neighbors[k];
      Facet& neighbor = facets_[g];
      if (neighbor.visit != round_) {
        neighbor.visit = round_;
        neighbor.visible = Height(g, p) > tolerance;
        if (neighbor.visible) {
          stack_[num_stack++] = g;  // each facet is pushed once: at most n on the stack
        }
      }
      if (!neighbor.visible) {
        if (num_horizon == n) {
          return Growth::kPoolExhausted;
        }
        horizon_[num_horizon++] = {f, k};
      }
    }
  }
  if (num_horizon == 0) {
    return Growth::kBrokenHorizon;  // p sees every facet: only rounding can do that
  }
  if (num_horizon > num_free_ + (capacity() - num_used_)) {
    return Growth::kPoolExhausted;
  }
  // Each rim ridge and p make a new facet: vertices 0..4 the ridge's (in the visible facet's
  // order), vertex 5 p, its neighbour across the ridge the facet p does not see.
  int num_ridges = 0;
  for (int h = 0; h < num_horizon; ++h) {
    const auto [f, k] = horizon_[h];
    const int nf = TakeSlot();
    Facet& created = facets_[nf];
    const Facet& old = facets_[f];
    int slot = 0;
    for (int j = 0; j < 6; ++j) {
      if (j != k) {
        created.vertices[slot++] = old.vertices[j];
      }
    }
    created.vertices[5] = point;
    const int g = old.neighbors[k];
    created.neighbors[5] = g;
    for (int& across : facets_[g].neighbors) {
      if (across == f) {
        across = nf;
      }
    }
    // The new facet's normal is orthogonal to the rim ridge's 4-flat, like the normals n_f of
    // the visible facet and n_g of its neighbour: n = a n_f + b n_g, and orthogonal to p - r
    // (r on the ridge) when a h_f + b h_g = 0, h the heights of p above the two facets. This
    // costs a few multiplications where QR costs hundreds; it is kept when the plane passes
    // through the six vertices to within residual_tolerance (QR otherwise).
    const double h_f = Height(f, p);
    const double h_g = Height(g, p);
    const Vector6d guess = h_f * facets_[g].normal - h_g * old.normal;
    const double length = guess.norm();
    if (!(length > 0.0) || !TryPlane(points, nf, guess / length, residual_tolerance)) {
      SetPlane(points, nf);
      ++num_plane_fallbacks_;
    }
    new_facets_[num_new_++] = nf;
    const std::array<int, 6>& v = created.vertices;
    for (int i = 0; i < 5; ++i) {
      // The ridge without vertex i: p and the four other rim vertices.
      int others[4];
      int m = 0;
      for (int j = 0; j < 5; ++j) {
        if (j != i) others[m++] = v[j];
      }
      rim_ridges_[num_ridges++] = {RidgeKey(others[0], others[1], others[2], others[3]), nf, i};
    }
  }
  // The rim is a closed 4-D surface: every face of it borders exactly two rim ridges, so the
  // keys come in equal pairs, and each pair is two new facets that are neighbours. Paired in a
  // hash table when the rim is small enough for it (nearly always), else by sorting.
  if (!(num_ridges <= static_cast<int>(ridge_table_.size()) / 2 ? PairByTable(num_ridges)
                                                                : PairBySorting(num_ridges))) {
    return Growth::kBrokenHorizon;
  }
  for (int i = 0; i < num_visible; ++i) {
    FreeSlot(visible_[i]);
  }
  return Growth::kGrown;
}

}  // namespace twinblocks::grasp::detail
