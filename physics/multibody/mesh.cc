#include "physics/multibody/mesh.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "common/detail/plugin_loader.h"
#include "common/input_file.h"
#include "physics/multibody/detail/mesh_plugin.h"

namespace twinblocks::multibody {
namespace {

// "mesh file 'parts/link1.stl'" or, for a mesh built in code, "mesh".
std::string Describe(const std::string& source) {
  return source.empty() ? std::string("mesh") : "mesh file '" + source + "'";
}

void CheckIndices(const TriangleMesh& mesh) {
  const int nv = static_cast<int>(mesh.vertices.size());
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int v : mesh.triangles[t]) {
      if (v < 0 || v >= nv) {
        throw std::invalid_argument("triangle " + std::to_string(t) + " of " +
                                    Describe(mesh.source) + " refers to vertex " +
                                    std::to_string(v) + ", but there are " + std::to_string(nv));
      }
    }
  }
}

bool Degenerate(const std::array<int, 3>& t) {
  return t[0] == t[1] || t[1] == t[2] || t[2] == t[0];
}

}  // namespace

TriangleMesh LoadMesh(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw MeshError(Describe(path) + " not found");
  // A regular file within the size limit: assimp would read a device or a FIFO forever.
  try {
    blocks::CheckInputFile(path);
  } catch (const blocks::InputFileError& e) {
    throw MeshError(Describe(path) +
                    " is not a regular file of at most the size limit: " + e.reason());
  }
  // The file's triangles from the mesh plugin (assimp): opened here, by the first model that
  // has a mesh, so that other runs do not load assimp.
  TriangleMesh read;
  try {
    read = blocks::internal::Plugin<internal::MeshPlugin>("mesh").read_triangles(path);
  } catch (const std::runtime_error& ex) {
    throw MeshError(Describe(path) + " could not be read: " + ex.what());
  }

  TriangleMesh mesh;
  mesh.source = path;
  // Vertices at the same position become one. Ordered map: merged indices follow the first
  // appearance in the file, so the result does not depend on hashing.
  std::map<std::array<double, 3>, int> index_of;
  std::vector<int> merged(read.vertices.size());
  for (size_t v = 0; v < read.vertices.size(); ++v) {
    const Eigen::Vector3d& p = read.vertices[v];
    const std::array<double, 3> key = {p.x(), p.y(), p.z()};
    auto [it, inserted] = index_of.try_emplace(key, static_cast<int>(mesh.vertices.size()));
    if (inserted) mesh.vertices.push_back(p);
    merged[v] = it->second;
  }
  for (const auto& triangle : read.triangles) {
    const std::array<int, 3> t = {merged[triangle[0]], merged[triangle[1]], merged[triangle[2]]};
    if (!Degenerate(t)) mesh.triangles.push_back(t);
  }
  if (mesh.triangles.empty()) throw MeshError(Describe(path) + " has no triangles");
  return mesh;
}

bool IsClosed(const TriangleMesh& mesh, int* open_edges) {
  CheckIndices(mesh);
  // Each undirected edge {lo, hi} counts how often it is traversed lo -> hi and hi -> lo. A
  // closed, consistently oriented surface traverses every edge once each way.
  std::unordered_map<std::uint64_t, std::pair<int, int>> uses;
  uses.reserve(mesh.triangles.size() * 3 / 2 + 1);
  for (const auto& t : mesh.triangles) {
    if (Degenerate(t)) continue;  // no area, no edges worth having
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      const auto lo = static_cast<std::uint64_t>(std::min(a, b));
      const auto hi = static_cast<std::uint64_t>(std::max(a, b));
      auto& [forward, backward] = uses[(lo << 32) | hi];
      (a < b ? forward : backward) += 1;
    }
  }
  int bad = 0;
  for (const auto& [edge, count] : uses) {
    if (count.first != 1 || count.second != 1) ++bad;
  }
  if (open_edges != nullptr) *open_edges = bad;
  return bad == 0;
}

MassProperties MeshProperties(const TriangleMesh& mesh, double density) {
  if (!(std::isfinite(density) && density > 0.0)) {
    std::ostringstream message;
    message << "density must be finite and > 0 (kg/m^3), got " << density;
    throw std::invalid_argument(message.str());
  }
  const std::string what = Describe(mesh.source);
  if (mesh.triangles.empty()) throw MeshError(what + " has no triangles");
  CheckIndices(mesh);
  for (const auto& v : mesh.vertices) {
    if (!v.allFinite()) throw MeshError(what + " has a vertex that is not finite");
  }
  int open_edges = 0;
  if (!IsClosed(mesh, &open_edges)) {
    throw MeshError(what + " is not a closed surface: " + std::to_string(open_edges) +
                    " edge(s) not shared by exactly two consistently oriented triangles");
  }

  // The tetrahedra are taken from a point amid the vertices rather than from the frame's
  // origin: a part modelled far from its origin would otherwise sum large terms that cancel
  // (its inertia about the CoM would lose digits); the solid is the same from any point.
  Eigen::Vector3d lo = mesh.vertices[mesh.triangles[0][0]], hi = lo;
  for (const auto& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Eigen::Vector3d reference = 0.5 * (lo + hi);

  // Per tetrahedron (reference, a, b, c), with d = a . (b x c) six times its signed volume
  // and s = a + b + c: volume d/6, first moment d/24 s, second moment
  // int x x^T dV = d/120 (a a^T + b b^T + c c^T + s s^T) (Eberly 2002, Tonon 2004).
  double six_volume = 0.0;
  Eigen::Vector3d first24 = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second120 = Eigen::Matrix3d::Zero();
  for (const auto& t : mesh.triangles) {
    const Eigen::Vector3d a = mesh.vertices[t[0]] - reference;
    const Eigen::Vector3d b = mesh.vertices[t[1]] - reference;
    const Eigen::Vector3d c = mesh.vertices[t[2]] - reference;
    const double d = a.dot(b.cross(c));
    const Eigen::Vector3d s = a + b + c;
    six_volume += d;
    first24 += d * s;
    second120 +=
        d * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  double volume = six_volume / 6.0;
  Eigen::Vector3d first = first24 / 24.0;
  Eigen::Matrix3d second = second120 / 120.0;
  if (volume < 0.0) {
    // Inward normals: every tetrahedron's sign is reversed, so all three sums are.
    volume = -volume;
    first = -first;
    second = -second;
  }
  const double extent = (hi - lo).norm();
  if (!(volume > 1e-12 * extent * extent * extent)) {
    std::ostringstream message;
    message << what << " encloses no volume (" << volume << " m^3 inside a bounding box of "
            << "diagonal " << extent << " m)";
    throw MeshError(message.str());
  }

  const Eigen::Vector3d com_from_reference = first / volume;
  // Second moment about the CoM (parallel axis theorem), then I = tr(C) 1 - C.
  const Eigen::Matrix3d second_com =
      second - volume * com_from_reference * com_from_reference.transpose();
  Eigen::Matrix3d inertia =
      density * (second_com.trace() * Eigen::Matrix3d::Identity() - second_com);
  inertia = 0.5 * (inertia + inertia.transpose()).eval();

  MassProperties p;
  p.volume = volume;
  p.mass = density * volume;
  p.com = reference + com_from_reference;
  p.inertia_com = inertia;
  return p;
}

}  // namespace twinblocks::multibody
