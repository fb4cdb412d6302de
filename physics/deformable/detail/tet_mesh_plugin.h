#pragma once

// The tetrahedral-meshing plugin's table (physics/deformable/plugins/tet_mesh_plugin.cc,
// libtwinblocks_tetmesh.so): Gmsh turns a primitive or a closed triangle surface into
// tetrahedra, for physics/deformable/tet_mesher.cc, which keeps the rules (checks, errors);
// the plugin only meshes. Built with the program, by the same compiler: C++ types and
// exceptions cross the boundary; kAbiVersion guards against a stale plugin.

#include "physics/deformable/mass_spring_body.h"
#include "physics/multibody/mesh.h"

namespace twinblocks::deformable::internal {

struct TetMeshPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;
  /// Tetrahedra of a primitive centred on the origin: shape 0 sphere (size[0] radius), 1 box
  /// (size = edges), 2 cylinder along z (size[0] radius, size[1] height), elements of about
  /// `element_size` (m).
  /// @throws std::runtime_error (one line) with Gmsh's reason when meshing fails.
  TetMesh (*mesh_primitive)(int shape, const double* size, double element_size);
  /// Tetrahedra filling a closed triangle surface, its triangles kept as the boundary.
  /// @throws std::runtime_error (one line) with Gmsh's reason when meshing fails.
  TetMesh (*mesh_surface)(const multibody::TriangleMesh& surface, double element_size);
};

}  // namespace twinblocks::deformable::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_tetmesh_plugin(int abi_version);
