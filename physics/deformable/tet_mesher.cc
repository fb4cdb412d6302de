#include "physics/deformable/tet_mesher.h"

#include <cmath>
#include <string>

#include "common/detail/plugin_loader.h"
#include "physics/deformable/detail/tet_mesh_plugin.h"

namespace twinblocks::deformable {

namespace {

/// Rough node count of a volume meshed at size h: a regular tetrahedral mesh has about
/// 1.5 / h^3 nodes per unit volume (and more near the boundary); used only as a guard.
double ExpectedNodes(double volume, double h) { return 1.5 * volume / (h * h * h); }

void CheckSize(double element_size, double volume, int max_nodes, const std::string& what) {
  if (!(element_size > 0.0) || !std::isfinite(element_size)) {
    throw TetMeshError(what + ": element size must be > 0 and finite, got " +
                       std::to_string(element_size));
  }
  if (!(volume > 0.0) || !std::isfinite(volume)) {
    throw TetMeshError(what + ": the body has no volume");
  }
  if (ExpectedNodes(volume, element_size) > max_nodes) {
    throw TetMeshError(what + ": element size " + std::to_string(element_size) +
                       " m would make about " +
                       std::to_string(static_cast<long long>(ExpectedNodes(volume, element_size))) +
                       " nodes, more than " + std::to_string(max_nodes));
  }
}

TetMesh Checked(TetMesh mesh, const std::string& what) {
  if (mesh.tets.empty()) throw TetMeshError(what + ": Gmsh made no tetrahedra");
  return mesh;
}

}  // namespace

TetMesh MeshPrimitive(Primitive shape, const Eigen::Vector3d& size, double element_size,
                      int max_nodes) {
  const char* names[] = {"sphere", "box", "cylinder"};
  const std::string what = std::string("meshing a ") + names[static_cast<int>(shape)];
  double volume = 0.0;
  switch (shape) {
    case Primitive::kSphere:
      volume = 4.0 / 3.0 * M_PI * std::pow(size[0], 3);
      break;
    case Primitive::kBox:
      volume = size.prod();
      break;
    case Primitive::kCylinder:
      volume = M_PI * size[0] * size[0] * size[1];
      break;
  }
  if (!size.allFinite()) throw TetMeshError(what + ": its size is not finite");
  CheckSize(element_size, volume, max_nodes, what);
  try {
    const auto& plugin = blocks::internal::Plugin<internal::TetMeshPlugin>("tetmesh");
    return Checked(plugin.mesh_primitive(static_cast<int>(shape), size.data(), element_size), what);
  } catch (const TetMeshError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw TetMeshError(what + ": " + e.what());
  }
}

TetMesh MeshSurface(const multibody::TriangleMesh& surface, double element_size, int max_nodes) {
  const std::string what =
      "meshing " + (surface.source.empty() ? std::string("a surface") : "'" + surface.source + "'");
  int open_edges = 0;
  if (!multibody::IsClosed(surface, &open_edges)) {
    throw TetMeshError(what + ": the surface is not closed (" + std::to_string(open_edges) +
                       " edges are not shared by exactly two triangles in opposite directions)");
  }
  double volume = 0.0;
  for (const auto& t : surface.triangles) {
    volume +=
        surface.vertices[t[0]].dot(surface.vertices[t[1]].cross(surface.vertices[t[2]])) / 6.0;
  }
  CheckSize(element_size, std::abs(volume), max_nodes, what);
  try {
    const auto& plugin = blocks::internal::Plugin<internal::TetMeshPlugin>("tetmesh");
    return Checked(plugin.mesh_surface(surface, element_size), what);
  } catch (const TetMeshError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw TetMeshError(what + ": " + e.what());
  }
}

}  // namespace twinblocks::deformable
