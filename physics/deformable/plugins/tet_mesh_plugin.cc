// libtwinblocks_tetmesh.so: tetrahedral meshes made by Gmsh, opened by
// physics/deformable/tet_mesher.cc on first use (common/detail/plugin_loader.h says why).
// Gmsh keeps one global model, so every call holds a lock and starts from a fresh model.
#include "physics/deformable/detail/tet_mesh_plugin.h"

#include <gmsh.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinblocks::deformable::internal {
namespace {

std::mutex gmsh_lock;

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

/// Gmsh for one meshing: quiet, throwing on errors, a fresh model; finalized on the way out.
class GmshSession {
 public:
  explicit GmshSession(double element_size) : lock_(gmsh_lock) {
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 0);
    gmsh::option::setNumber("General.Verbosity", 0);
    gmsh::option::setNumber("Mesh.MeshSizeMax", element_size);
    gmsh::option::setNumber("Mesh.MeshSizeMin", 0.5 * element_size);
    gmsh::option::setNumber("Mesh.Algorithm3D", 1);  // Delaunay
    gmsh::model::add("twinblocks");
  }
  ~GmshSession() { gmsh::finalize(); }

  /// The 3D mesh's nodes (renumbered from 0, only those on tetrahedra) and tetrahedra.
  TetMesh Tetrahedra() const {
    std::vector<std::size_t> tags, element_tags;
    std::vector<double> coords, parametric;
    gmsh::model::mesh::getNodes(tags, coords, parametric, -1, -1, true, false);
    std::map<std::size_t, int> coordinate_of;
    for (size_t i = 0; i < tags.size(); ++i) coordinate_of[tags[i]] = static_cast<int>(i);
    std::vector<std::size_t> node_tags;
    gmsh::model::mesh::getElementsByType(4, element_tags, node_tags);  // 4-node tetrahedra
    std::map<std::size_t, int> index;
    TetMesh mesh;
    std::vector<double> kept;
    for (size_t e = 0; e + 3 < node_tags.size(); e += 4) {
      std::array<int, 4> tet{};
      for (int k = 0; k < 4; ++k) {
        const std::size_t tag = node_tags[e + k];
        auto [it, added] = index.try_emplace(tag, static_cast<int>(index.size()));
        if (added) {
          const int c = coordinate_of.at(tag);
          kept.insert(kept.end(), {coords[3 * c], coords[3 * c + 1], coords[3 * c + 2]});
        }
        tet[k] = it->second;
      }
      mesh.tets.push_back(tet);
    }
    mesh.nodes = Eigen::Map<const Eigen::Matrix3Xd>(kept.data(), 3,
                                                    static_cast<Eigen::Index>(kept.size() / 3));
    return mesh;
  }

 private:
  std::lock_guard<std::mutex> lock_;
};

template <class F>
TetMesh Guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw std::runtime_error(OneLine(std::string("Gmsh: ") + e.what()));
  } catch (...) {
    std::string error;
    try {
      gmsh::logger::getLastError(error);
    } catch (...) {
    }
    throw std::runtime_error(OneLine("Gmsh: " + (error.empty() ? "meshing failed" : error)));
  }
}

TetMesh MeshPrimitive(int shape, const double* size, double element_size) {
  return Guarded([&] {
    GmshSession session(element_size);
    switch (shape) {
      case 0:
        gmsh::model::occ::addSphere(0, 0, 0, size[0]);
        break;
      case 1:
        gmsh::model::occ::addBox(-size[0] / 2, -size[1] / 2, -size[2] / 2, size[0], size[1],
                                 size[2]);
        break;
      case 2:
        gmsh::model::occ::addCylinder(0, 0, -size[1] / 2, 0, 0, size[1], size[0]);
        break;
      default:
        throw std::runtime_error("unknown primitive " + std::to_string(shape));
    }
    gmsh::model::occ::synchronize();
    gmsh::model::mesh::generate(3);
    return session.Tetrahedra();
  });
}

TetMesh MeshSurface(const multibody::TriangleMesh& surface, double element_size) {
  return Guarded([&] {
    GmshSession session(element_size);
    const int s = gmsh::model::addDiscreteEntity(2);
    std::vector<std::size_t> tags(surface.vertices.size());
    std::vector<double> coords;
    for (size_t v = 0; v < surface.vertices.size(); ++v) {
      tags[v] = v + 1;
      coords.insert(coords.end(),
                    {surface.vertices[v].x(), surface.vertices[v].y(), surface.vertices[v].z()});
    }
    gmsh::model::mesh::addNodes(2, s, tags, coords);
    std::vector<std::size_t> triangles;
    for (const auto& t : surface.triangles) {
      for (int k = 0; k < 3; ++k) triangles.push_back(static_cast<std::size_t>(t[k]) + 1);
    }
    gmsh::model::mesh::addElementsByType(s, 2, {}, triangles);  // 3-node triangles
    const int loop = gmsh::model::geo::addSurfaceLoop({s});
    gmsh::model::geo::addVolume({loop});
    gmsh::model::geo::synchronize();
    gmsh::model::mesh::generate(3);
    return session.Tetrahedra();
  });
}

constexpr TetMeshPlugin kTable{&MeshPrimitive, &MeshSurface};

}  // namespace
}  // namespace twinblocks::deformable::internal

extern "C" const void* twinblocks_tetmesh_plugin(int abi_version) {
  using twinblocks::deformable::internal::TetMeshPlugin;
  return abi_version == TetMeshPlugin::kAbiVersion ? &twinblocks::deformable::internal::kTable
                                                   : nullptr;
}
