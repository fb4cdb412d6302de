#include "physics/grasp/object_mesh.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/triangle_measures.h"
#include "physics/multibody/mesh.h"

namespace twinblocks::grasp {
namespace {

using detail::NumberText;
using detail::VectorText;

[[noreturn]] void FailMesh(const std::string& message) { throw std::invalid_argument(message); }

std::string MeshEdgeText(int from, int to) {
  return "(" + std::to_string(from) + ", " + std::to_string(to) + ")";
}

// A triangle's corners, by index into the vertices.
struct MeshCorners {
  Eigen::Vector3d a, b, c;
};

MeshCorners MeshTriangleCorners(const Eigen::Matrix3Xd& vertices, const Eigen::Matrix3Xi& triangles,
                                Eigen::Index t) {
  return {vertices.col(triangles(0, t)), vertices.col(triangles(1, t)),
          vertices.col(triangles(2, t))};
}

void CheckMeshSizesAndValues(const Eigen::Matrix3Xd& vertices, const Eigen::Matrix3Xi& triangles) {
  const Eigen::Index nv = vertices.cols();
  const Eigen::Index nt = triangles.cols();
  if (nv < 4 || nt < 4) {
    FailMesh("grasp: triangle mesh has " + std::to_string(nv) + " vertices and " +
             std::to_string(nt) + " triangles; a closed surface needs at least 4 of each");
  }
  for (Eigen::Index t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = triangles(k, t);
      if (v < 0 || v >= nv) {
        FailMesh("grasp: mesh triangle " + std::to_string(t) + " refers to vertex " +
                 std::to_string(v) + "; the mesh has vertices 0 to " + std::to_string(nv - 1));
      }
    }
  }
  for (Eigen::Index v = 0; v < nv; ++v) {
    if (!vertices.col(v).allFinite()) {
      FailMesh("grasp: mesh vertex " + std::to_string(v) + " " + VectorText(vertices.col(v)) +
               " is not finite");
    }
  }
  for (Eigen::Index t = 0; t < nt; ++t) {
    const MeshCorners p = MeshTriangleCorners(vertices, triangles, t);
    const double area = 0.5 * (p.b - p.a).cross(p.c - p.a).norm();
    const double longest = std::max({(p.b - p.a).norm(), (p.c - p.b).norm(), (p.a - p.c).norm()});
    // Height over the longest edge: 2 A / longest.
    if (2.0 * area <= kMeshDegenerateTolerance * longest * longest) {
      FailMesh("grasp: mesh triangle " + std::to_string(t) + " (vertices " +
               std::to_string(triangles(0, t)) + ", " + std::to_string(triangles(1, t)) + ", " +
               std::to_string(triangles(2, t)) + ") is degenerate: area " + NumberText(area) +
               " m^2 for a longest edge of " + NumberText(longest) + " m");
    }
  }
}

// Every edge must be run by exactly two triangles, once each way.
void CheckMeshEdges(const Eigen::Matrix3Xi& triangles) {
  // Undirected edge (low, high) -> the triangles using it and whether each runs low to high.
  std::map<std::pair<int, int>, std::vector<std::pair<int, bool>>> uses;
  const int nt = static_cast<int>(triangles.cols());
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int from = triangles(k, t);
      const int to = triangles((k + 1) % 3, t);
      uses[{std::min(from, to), std::max(from, to)}].push_back({t, from < to});
    }
  }
  // Reported in triangle order, so the first problem named does not depend on the map.
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int from = triangles(k, t);
      const int to = triangles((k + 1) % 3, t);
      const auto& users = uses.at({std::min(from, to), std::max(from, to)});
      if (users.size() != 2) {
        FailMesh("grasp: mesh edge " + MeshEdgeText(from, to) + " of triangle " +
                 std::to_string(t) + " is shared by " + std::to_string(users.size()) +
                 " triangle(s); a closed manifold surface has every edge in exactly two");
      }
      if (users[0].second == users[1].second) {
        FailMesh("grasp: mesh triangles " + std::to_string(users[0].first) + " and " +
                 std::to_string(users[1].first) + " both run edge " + MeshEdgeText(from, to) +
                 " from vertex " + std::to_string(from) + " to vertex " + std::to_string(to) +
                 "; the orientation is inconsistent (each edge must be run once each way)");
      }
    }
  }
}

void CheckMeshVolume(const Eigen::Matrix3Xd& vertices, const Eigen::Matrix3Xi& triangles) {
  // Divergence theorem: the signed volumes of the tetrahedra joining the bounding box's centre
  // (for less rounding than the origin) to each triangle.
  const Eigen::Vector3d lo = vertices.rowwise().minCoeff();
  const Eigen::Vector3d hi = vertices.rowwise().maxCoeff();
  const Eigen::Vector3d o = 0.5 * (lo + hi);
  double volume = 0.0;
  for (Eigen::Index t = 0; t < triangles.cols(); ++t) {
    const MeshCorners p = MeshTriangleCorners(vertices, triangles, t);
    volume += (p.a - o).dot((p.b - o).cross(p.c - o)) / 6.0;
  }
  const double diagonal = (hi - lo).norm();
  if (volume <= 1e-12 * diagonal * diagonal * diagonal) {
    FailMesh("grasp: triangle mesh encloses a volume of " + NumberText(volume) +
             " m^3; expected a positive volume (triangles counter-clockwise seen from outside; "
             "a negative volume is an inside-out mesh)");
  }
}

void CheckMeshSpacing(double spacing, double z_min) {
  if (!std::isfinite(spacing) || spacing <= 0.0) {
    FailMesh("grasp: mesh sampling spacing " + NumberText(spacing) +
             " must be positive and finite");
  }
  if (!std::isfinite(z_min)) {
    FailMesh("grasp: mesh sampling z_min " + NumberText(z_min) + " is not finite");
  }
}

}  // namespace

void CheckClosedTriangleMesh(const Eigen::Matrix3Xd& vertices, const Eigen::Matrix3Xi& triangles) {
  CheckMeshSizesAndValues(vertices, triangles);
  CheckMeshEdges(triangles);
  CheckMeshVolume(vertices, triangles);
}

SurfaceSamples SampleTriangleMeshSurface(const Eigen::Matrix3Xd& vertices,
                                         const Eigen::Matrix3Xi& triangles, double spacing,
                                         double z_min) {
  CheckMeshSpacing(spacing, z_min);
  CheckClosedTriangleMesh(vertices, triangles);
  const Eigen::Index nt = triangles.cols();
  std::vector<int> divisions(nt);
  std::int64_t total = 0;
  for (Eigen::Index t = 0; t < nt; ++t) {
    const MeshCorners p = MeshTriangleCorners(vertices, triangles, t);
    const double area = 0.5 * (p.b - p.a).cross(p.c - p.a).norm();
    const double n = std::max(1.0, std::round(std::sqrt(area) / spacing));
    if (n * n > kMaxMeshSamples) {
      total = std::int64_t{kMaxMeshSamples} + 1;
      break;
    }
    divisions[t] = static_cast<int>(n);
    total += std::int64_t{divisions[t]} * divisions[t];
  }
  if (total > kMaxMeshSamples) {
    FailMesh("grasp: sampling the mesh's faces at spacing " + NumberText(spacing) +
             " m gives more than " + std::to_string(kMaxMeshSamples) +
             " points (kMaxMeshSamples); use a larger spacing");
  }
  std::vector<Eigen::Vector3d> points;
  std::vector<Eigen::Vector3d> normals;
  for (Eigen::Index t = 0; t < nt; ++t) {
    const MeshCorners p = MeshTriangleCorners(vertices, triangles, t);
    const Eigen::Vector3d u = p.b - p.a;
    const Eigen::Vector3d v = p.c - p.a;
    const Eigen::Vector3d normal = u.cross(v).normalized();
    const int n = divisions[t];
    // Centroids of the sub-triangles in the coordinates (s, r) of a + s u + r v: pointing up at
    // ((i + 1/3) / n, (j + 1/3) / n) for i + j <= n - 1, down at ((i + 2/3) / n, (j + 2/3) / n)
    // for i + j <= n - 2.
    for (int i = 0; i < n; ++i) {
      for (int j = 0; i + j < n; ++j) {
        for (const double shift : {1.0 / 3.0, 2.0 / 3.0}) {
          if (shift > 0.5 && i + j > n - 2) {
            continue;
          }
          const Eigen::Vector3d q = p.a + ((i + shift) / n) * u + ((j + shift) / n) * v;
          if (q.z() > z_min) {
            points.push_back(q);
            normals.push_back(normal);
          }
        }
      }
    }
  }
  const int m = static_cast<int>(points.size());
  if (m == 0) {
    FailMesh("grasp: no point of the mesh's faces lies above z_min = " + NumberText(z_min) + " m");
  }
  const int kept = std::min(m, kMaxTrianglePoints);
  SurfaceSamples samples{Eigen::Matrix3Xd(3, kept), Eigen::Matrix3Xd(3, kept)};
  for (int k = 0; k < kept; ++k) {
    const int i = static_cast<int>(std::int64_t{k} * m / kept);
    samples.p_W.col(k) = points[i];
    samples.n_W.col(k) = normals[i];
  }
  return samples;
}

PlacedMesh LoadPlacedMesh(const std::string& path, const multibody::Pose& X_WM) {
  const Eigen::Matrix3d& R = X_WM.rotation;
  if (!R.allFinite() || !X_WM.translation.allFinite() || !(R.transpose() * R).isIdentity(1e-9) ||
      R.determinant() <= 0.0) {
    FailMesh("grasp: mesh pose has translation " + VectorText(X_WM.translation) +
             " and a rotation that is not finite and orthonormal with determinant 1 (to 1e-9)");
  }
  multibody::TriangleMesh mesh;
  try {
    mesh = multibody::LoadMesh(path);
  } catch (const multibody::MeshError& e) {
    FailMesh(std::string("grasp: ") + e.what());
  }
  PlacedMesh placed;
  placed.vertices.resize(3, static_cast<Eigen::Index>(mesh.vertices.size()));
  for (size_t v = 0; v < mesh.vertices.size(); ++v) {
    placed.vertices.col(static_cast<Eigen::Index>(v)) = X_WM.TransformPoint(mesh.vertices[v]);
  }
  placed.triangles.resize(3, static_cast<Eigen::Index>(mesh.triangles.size()));
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      placed.triangles(k, static_cast<Eigen::Index>(t)) = mesh.triangles[t][k];
    }
  }
  try {
    CheckClosedTriangleMesh(placed.vertices, placed.triangles);
  } catch (const std::invalid_argument& e) {
    FailMesh(std::string(e.what()) + " (mesh file '" + path + "')");
  }
  return placed;
}

SurfaceSamples SampleMeshFileSurface(const std::string& path, const multibody::Pose& X_WM,
                                     double spacing, double z_min) {
  const PlacedMesh mesh = LoadPlacedMesh(path, X_WM);
  try {
    return SampleTriangleMeshSurface(mesh.vertices, mesh.triangles, spacing, z_min);
  } catch (const std::invalid_argument& e) {
    FailMesh(std::string(e.what()) + " (mesh file '" + path + "')");
  }
}

Eigen::Vector3d CalcClosedMeshCentroid(const Eigen::Matrix3Xd& vertices,
                                       const Eigen::Matrix3Xi& triangles) {
  CheckClosedTriangleMesh(vertices, triangles);
  double six_volume = 0.0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (Eigen::Index t = 0; t < triangles.cols(); ++t) {
    const Eigen::Vector3d a = vertices.col(triangles(0, t));
    const Eigen::Vector3d b = vertices.col(triangles(1, t));
    const Eigen::Vector3d c = vertices.col(triangles(2, t));
    const double det = a.dot(b.cross(c));
    six_volume += det;
    moment += det * (a + b + c) / 4.0;
  }
  return moment / six_volume;  // closed and outward: six_volume > 0 (checked)
}

}  // namespace twinblocks::grasp
