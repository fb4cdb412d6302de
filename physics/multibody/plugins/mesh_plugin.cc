// libtwinblocks_mesh.so: mesh files (STL, OBJ and the other formats assimp knows) read by
// assimp, opened by physics/multibody/mesh.cc on first use (common/detail/plugin_loader.h says
// why).
#include "physics/multibody/detail/mesh_plugin.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <stdexcept>
#include <string>

namespace twinblocks::multibody::internal {
namespace {

// assimp's messages sometimes span lines; ours are one line.
std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

TriangleMesh ReadTriangles(const std::string& path) {
  Assimp::Importer importer;
  // Node transforms are baked in so that a multi-part OBJ or a scene with placed parts comes
  // out as one set of vertices in the file's frame. No vertex joining here: assimp's
  // aiProcess_JoinIdenticalVertices keeps STL corners apart when their face normals differ,
  // which is always; mesh.cc merges by position, which is what closedness needs.
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_PreTransformVertices);
  if (scene == nullptr) throw std::runtime_error(OneLine(importer.GetErrorString()));
  TriangleMesh mesh;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    const int first = static_cast<int>(mesh.vertices.size());
    for (unsigned v = 0; v < part->mNumVertices; ++v) {
      const aiVector3D& p = part->mVertices[v];
      mesh.vertices.emplace_back(p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines enclose nothing
      mesh.triangles.push_back({first + static_cast<int>(face.mIndices[0]),
                                first + static_cast<int>(face.mIndices[1]),
                                first + static_cast<int>(face.mIndices[2])});
    }
  }
  return mesh;
}

constexpr MeshPlugin kTable{&ReadTriangles};

}  // namespace
}  // namespace twinblocks::multibody::internal

extern "C" const void* twinblocks_mesh_plugin(int abi_version) {
  using twinblocks::multibody::internal::MeshPlugin;
  return abi_version == MeshPlugin::kAbiVersion ? &twinblocks::multibody::internal::kTable
                                                : nullptr;
}
