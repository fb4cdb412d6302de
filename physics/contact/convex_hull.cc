// MakeConvexHull: Quickhull (Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm for
// Convex Hulls", ACM TOMS 1996) on triangles with "thick" planes, then the coplanar triangles
// merged into the hull's polygonal faces. Runs once per mesh, before a simulation.
//
// Quickhull grows a tetrahedron of extreme points. Every remaining point is kept in the
// outside set of one face it lies above; the farthest point of a face's set is added next:
// the faces it sees are removed and the hole is closed by a cone of new faces from the point
// to the horizon (the visible region's boundary), and the removed faces' points are handed to
// the new faces or dropped as inside. A point counts as above a face only if it is more than
// the tolerance above it, so points on the hull's surface (face centres, points along edges)
// never become vertices, and the result does not depend on rounding.

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "physics/contact/collision.h"

namespace twinblocks::contact {

namespace {

// Points within this fraction of the point set's size of a face's plane lie on it: above
// double rounding, and above the rounding of meshes read in single precision.
constexpr double kRelativeTolerance = 1e-7;

struct Face {
  std::array<int, 3> v;    // counter-clockwise seen from outside
  std::array<int, 3> adj;  // adj[i]: the face across the edge v[i] -> v[i + 1]
  Eigen::Vector3d normal;  // unit, outward
  double offset;           // the plane: normal . x = offset
  std::vector<int> outside;
  bool alive = true;
  int mark = -1;  // the last iteration that found this face visible
};

class Quickhull {
 public:
  explicit Quickhull(const std::vector<Eigen::Vector3d>& points) : p_(points) {}

  // The hull's triangles, counter-clockwise from outside, with their adjacency.
  const std::vector<Face>& Run();
  double tolerance() const { return eps_; }

 private:
  double Height(const Face& f, int point) const { return f.normal.dot(p_[point]) - f.offset; }
  int AddFace(int a, int b, int c, const Eigen::Vector3d& fallback_normal);
  void InitialTetrahedron();
  // Hands `point` to the face of `candidates` it lies highest above (if any).
  void Assign(int point, const std::vector<int>& candidates);
  void AddPoint(int face);

  const std::vector<Eigen::Vector3d>& p_;
  double eps_ = 0.0;
  std::vector<Face> faces_;
  std::vector<int> pending_;  // faces whose outside set may be non-empty
  int iteration_ = 0;
};

int Quickhull::AddFace(int a, int b, int c, const Eigen::Vector3d& fallback_normal) {
  Face f;
  f.v = {a, b, c};
  f.adj = {-1, -1, -1};
  const Eigen::Vector3d n = (p_[b] - p_[a]).cross(p_[c] - p_[a]);
  const double len = n.norm();
  // A sliver (the new point in line with a horizon edge) is coplanar with its neighbour.
  f.normal = len > 0.0 ? Eigen::Vector3d(n / len) : fallback_normal;
  f.offset = f.normal.dot(p_[a]);
  faces_.push_back(std::move(f));
  return static_cast<int>(faces_.size()) - 1;
}

void Quickhull::InitialTetrahedron() {
  const int n = static_cast<int>(p_.size());
  Eigen::Vector3d lo = p_[0], hi = p_[0];
  for (const Eigen::Vector3d& q : p_) {
    if (!q.allFinite()) throw std::invalid_argument("MakeConvexHull: a point is not finite");
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  eps_ = kRelativeTolerance * (hi - lo).norm();
  const auto argmax = [n](const auto& score) {
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (score(i) > score(best)) best = i;
    }
    return best;
  };
  const int i0 = argmax([&](int i) { return -p_[i].x(); });
  const int i1 = argmax([&](int i) { return (p_[i] - p_[i0]).squaredNorm(); });
  const Eigen::Vector3d e = (p_[i1] - p_[i0]).normalized();
  const auto line_distance = [&](int i) {
    const Eigen::Vector3d r = p_[i] - p_[i0];
    return (r - r.dot(e) * e).norm();
  };
  const int i2 = argmax(line_distance);
  const Eigen::Vector3d m = e.cross(p_[i2] - p_[i0]).normalized();
  const auto plane_distance = [&](int i) { return std::abs(m.dot(p_[i] - p_[i0])); };
  const int i3 = argmax(plane_distance);
  if ((p_[i1] - p_[i0]).norm() <= eps_ || line_distance(i2) <= eps_ || plane_distance(i3) <= eps_) {
    throw std::invalid_argument("MakeConvexHull: the points lie in a plane");
  }
  // Each face of the tetrahedron leaves out one vertex, which must lie below it.
  const std::array<int, 4> t = {i0, i1, i2, i3};
  for (int skip = 0; skip < 4; ++skip) {
    std::array<int, 3> v;
    for (int k = 0, j = 0; k < 4; ++k) {
      if (k != skip) v[j++] = t[k];
    }
    const int f = AddFace(v[0], v[1], v[2], Eigen::Vector3d::UnitZ());
    if (Height(faces_[f], t[skip]) > 0.0) {
      faces_.pop_back();
      AddFace(v[0], v[2], v[1], Eigen::Vector3d::UnitZ());
    }
  }
  for (Face& f : faces_) {
    for (int i = 0; i < 3; ++i) {
      for (int g = 0; g < 4; ++g) {
        for (int j = 0; j < 3; ++j) {
          if (faces_[g].v[j] == f.v[(i + 1) % 3] && faces_[g].v[(j + 1) % 3] == f.v[i]) {
            f.adj[i] = g;
          }
        }
      }
    }
  }
  const std::vector<int> all = {0, 1, 2, 3};
  for (int i = 0; i < n; ++i) {
    if (std::find(t.begin(), t.end(), i) == t.end()) Assign(i, all);
  }
  pending_ = all;
}

void Quickhull::Assign(int point, const std::vector<int>& candidates) {
  int best = -1;
  double best_height = eps_;
  for (const int f : candidates) {
    const double h = Height(faces_[f], point);
    if (h > best_height) {
      best_height = h;
      best = f;
    }
  }
  if (best >= 0) faces_[best].outside.push_back(point);
}

void Quickhull::AddPoint(int face) {
  ++iteration_;
  const Face& start = faces_[face];
  const int eye = *std::max_element(start.outside.begin(), start.outside.end(), [&](int a, int b) {
    return Height(start, a) < Height(start, b);
  });
  // The faces the eye sees, by a search from `face` over neighbours; the horizon is the edges
  // between a visible and an invisible face (the invisible face, across, keeps its edge).
  std::vector<int> visible = {face}, stack = {face};
  std::vector<std::pair<int, int>> horizon;  // (visible face, edge index)
  faces_[face].mark = iteration_;
  while (!stack.empty()) {
    const int f = stack.back();
    stack.pop_back();
    for (int i = 0; i < 3; ++i) {
      const int g = faces_[f].adj[i];
      if (faces_[g].mark == iteration_) continue;
      if (Height(faces_[g], eye) > eps_) {
        faces_[g].mark = iteration_;
        visible.push_back(g);
        stack.push_back(g);
      } else {
        horizon.emplace_back(f, i);
      }
    }
  }
  // The cone: one face (a, b, eye) per horizon edge a -> b, linked to the face across the edge
  // and to its two neighbours in the cone (found by their horizon vertices).
  std::unordered_map<int, int> cone_by_start;
  std::vector<int> cone;
  for (const auto& [f, i] : horizon) {
    const int a = faces_[f].v[i], b = faces_[f].v[(i + 1) % 3];
    const int across = faces_[f].adj[i];
    const int c = AddFace(a, b, eye, faces_[across].normal);
    faces_[c].adj[0] = across;
    for (int j = 0; j < 3; ++j) {
      if (faces_[across].v[j] == b && faces_[across].v[(j + 1) % 3] == a) {
        faces_[across].adj[j] = c;
      }
    }
    cone_by_start[a] = c;
    cone.push_back(c);
  }
  for (const int c : cone) {
    faces_[c].adj[1] = cone_by_start.at(faces_[c].v[1]);
    faces_[faces_[c].adj[1]].adj[2] = c;
  }
  for (const int f : visible) {
    faces_[f].alive = false;
    std::vector<int> outside = std::move(faces_[f].outside);
    for (const int q : outside) {
      if (q != eye) Assign(q, cone);
    }
  }
  pending_.insert(pending_.end(), cone.begin(), cone.end());
}

const std::vector<Face>& Quickhull::Run() {
  InitialTetrahedron();
  while (!pending_.empty()) {
    const int f = pending_.back();
    pending_.pop_back();
    if (faces_[f].alive && !faces_[f].outside.empty()) {
      AddPoint(f);
      if (faces_[f].alive) pending_.push_back(f);
    }
  }
  return faces_;
}

// Merges the hull's coplanar triangles into polygons: a flood from each triangle over
// neighbours whose vertices all lie on its plane (to the tolerance, measured from the first
// triangle so that a gently curved surface does not drift into one face); each group's
// boundary, walked along its edges, is a face, with vertices in line along an edge dropped.
void MergeFaces(const std::vector<Eigen::Vector3d>& p, const std::vector<Face>& triangles,
                double eps, ConvexHull* hull) {
  std::vector<int> group(triangles.size(), -1);
  std::vector<std::vector<int>> members;
  for (size_t seed = 0; seed < triangles.size(); ++seed) {
    if (!triangles[seed].alive || group[seed] >= 0) continue;
    const Face& s = triangles[seed];
    const int id = static_cast<int>(members.size());
    members.push_back({static_cast<int>(seed)});
    group[seed] = id;
    for (size_t k = 0; k < members[id].size(); ++k) {
      for (const int g : triangles[members[id][k]].adj) {
        if (group[g] >= 0 || s.normal.dot(triangles[g].normal) <= 0.0) continue;
        const bool coplanar = std::all_of(triangles[g].v.begin(), triangles[g].v.end(), [&](int i) {
          return std::abs(s.normal.dot(p[i]) - s.offset) <= eps;
        });
        if (coplanar) {
          group[g] = id;
          members[id].push_back(g);
        }
      }
    }
  }
  std::vector<int> new_index(p.size(), -1);
  for (const std::vector<int>& tris : members) {
    std::unordered_map<int, int> next;  // boundary edges: start -> end
    for (const int t : tris) {
      for (int i = 0; i < 3; ++i) {
        if (group[triangles[t].adj[i]] != group[t]) {
          next[triangles[t].v[i]] = triangles[t].v[(i + 1) % 3];
        }
      }
    }
    std::vector<int> loop = {next.begin()->first};
    while (static_cast<int>(loop.size()) <= static_cast<int>(next.size())) {
      const int v = next.at(loop.back());
      if (v == loop.front()) break;
      loop.push_back(v);
    }
    // A vertex within the tolerance of the line through its neighbours lies on an edge.
    std::vector<int> corners;
    const int n = static_cast<int>(loop.size());
    for (int k = 0; k < n; ++k) {
      const Eigen::Vector3d& prev = p[loop[(k + n - 1) % n]];
      const Eigen::Vector3d& next_p = p[loop[(k + 1) % n]];
      const Eigen::Vector3d chord = next_p - prev;
      if ((p[loop[k]] - prev).cross(chord).norm() > eps * chord.norm()) {
        corners.push_back(loop[k]);
      }
    }
    // Newell's method (Sutherland, Sproull and Schumacker 1974): the polygon's area vector,
    // which averages the normal over all its vertices.
    Eigen::Vector3d area = Eigen::Vector3d::Zero();
    for (size_t k = 0; k < corners.size(); ++k) {
      area += p[corners[k]].cross(p[corners[(k + 1) % corners.size()]]);
    }
    std::vector<int> face;
    for (const int v : corners) {
      if (new_index[v] < 0) {
        new_index[v] = static_cast<int>(hull->vertices.size());
        hull->vertices.push_back(p[v]);
      }
      face.push_back(new_index[v]);
    }
    hull->faces.push_back(std::move(face));
    hull->normals.push_back(area.normalized());
  }
}

}  // namespace

std::shared_ptr<const ConvexHull> MakeConvexHull(const std::vector<Eigen::Vector3d>& points) {
  if (points.size() < 4) {
    throw std::invalid_argument("MakeConvexHull: needs at least 4 points, got " +
                                std::to_string(points.size()));
  }
  Quickhull quickhull(points);
  const std::vector<Face>& triangles = quickhull.Run();
  auto hull = std::make_shared<ConvexHull>();
  MergeFaces(points, triangles, quickhull.tolerance(), hull.get());
  for (const Eigen::Vector3d& v : hull->vertices) {
    hull->bounding_radius = std::max(hull->bounding_radius, v.norm());
  }
  return hull;
}

}  // namespace twinblocks::contact
