#pragma once

// Tetrahedral meshes of deformable bodies, made by Gmsh (a Debian-packaged mesher, opened as
// a plugin): of a primitive at a requested element size, or of a closed triangle surface. The
// checks and the error messages are here; the plugin only meshes.

#include <stdexcept>
#include <string>

#include "physics/deformable/mass_spring_body.h"
#include "physics/multibody/mesh.h"

namespace twinblocks::deformable {

/// A mesh that cannot be made: a surface that is not closed, a size that is not positive, a
/// meshing that fails or gives no tetrahedra. One line.
class TetMeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Primitive { kSphere, kBox, kCylinder };

/// The tetrahedra of a primitive centred on the origin: a sphere of radius size[0], a box of
/// edges size, or a cylinder along z of radius size[0] and height size[1]; elements of about
/// `element_size` (m). At most `max_nodes` nodes (a guard against a size that would exhaust
/// memory: the element count grows as (extent / element_size)^3).
/// @throws TetMeshError as above, or when the request would exceed max_nodes.
TetMesh MeshPrimitive(Primitive shape, const Eigen::Vector3d& size, double element_size,
                      int max_nodes = 200000);

/// The tetrahedra filling a closed, consistently oriented triangle surface.
/// @throws TetMeshError naming the surface's source: not closed (with the number of open
///         edges), a size that is not positive, or meshing that fails.
TetMesh MeshSurface(const multibody::TriangleMesh& surface, double element_size,
                    int max_nodes = 200000);

}  // namespace twinblocks::deformable
