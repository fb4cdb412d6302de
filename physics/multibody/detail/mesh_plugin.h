#pragma once

// The mesh plugin's table (physics/multibody/plugins/mesh_plugin.cc, libtwinblocks_mesh.so):
// mesh files read by assimp, for physics/multibody/mesh.cc, which keeps the rules (vertex
// merging, closedness, errors); the plugin only turns a file into triangles. Built with the
// program, by the same compiler: C++ types and exceptions cross the boundary; kAbiVersion
// guards against a stale plugin.

#include <string>

#include "physics/multibody/mesh.h"

namespace twinblocks::multibody::internal {

struct MeshPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;
  /// The triangles of a mesh file as assimp reads them: polygons triangulated, node
  /// transforms baked in, each part's vertices after the previous part's with none merged,
  /// points and lines dropped. `source` is left empty.
  /// @throws std::runtime_error (one line) with assimp's reason when the file cannot be read.
  TriangleMesh (*read_triangles)(const std::string& path);
};

}  // namespace twinblocks::multibody::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_mesh_plugin(int abi_version);
