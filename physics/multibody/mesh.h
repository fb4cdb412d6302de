#pragma once

// Triangle meshes for Solid shape="mesh": reading them from STL (ASCII and binary) and OBJ
// files, and their mass properties as uniform solids.
//
// The mass properties come from the divergence theorem: a closed, outward-oriented surface is
// the signed sum of the tetrahedra joining a reference point to each triangle, and each
// tetrahedron's volume, first and second moments have exact closed forms (Mirtich, "Fast and
// accurate computation of polyhedral mass properties", 1996; Eberly, "Polyhedral Mass
// Properties (Revisited)", 2002). The result is exact for the polyhedron, so a mesh of a box
// gives the box's inertia to rounding, and a tessellated sphere converges to the sphere's as
// the tessellation is refined. It is only meaningful for a closed surface, which is why
// MeshProperties checks closedness first instead of returning a plausible wrong number.

#include <Eigen/Core>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "physics/multibody/solid_geometry.h"

namespace twinblocks::multibody {

/// A mesh that cannot be used: the file is missing or unreadable, holds no triangles, or the
/// surface is not closed or encloses no volume. The message is one line and names the file
/// when the mesh came from one.
class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An indexed triangle mesh in its own frame S. A triangle's vertices are listed
/// counter-clockwise seen from outside (right-hand rule: the normal points out).
struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;      ///< (nv) positions in S (m)
  std::vector<std::array<int, 3>> triangles;  ///< (nt) indices into vertices
  std::string source;  ///< the file the mesh came from ("" if built in code), for messages
};

/// Reads a mesh file through assimp: STL (ASCII and binary), OBJ, and the other formats assimp
/// knows. Polygons are triangulated, node transforms baked in, points and lines dropped.
/// Vertices at exactly the same position are merged into one (STL stores every triangle's
/// three corners on their own, so without this no two triangles would share an edge and no STL
/// mesh could be checked for closedness), and triangles left with a repeated vertex are
/// dropped. Coordinates are taken as they are, in m: no unit conversion.
/// @param path  the file; the result's `source` is set to it.
/// @throws MeshError if the file does not exist, cannot be parsed, or holds no triangles.
TriangleMesh LoadMesh(const std::string& path);

/// Whether the mesh is a closed, consistently oriented surface: every edge is shared by
/// exactly two triangles that traverse it in opposite directions. That is the condition under
/// which the divergence theorem gives the enclosed solid's volume and moments.
/// @param open_edges  if not null, set to the number of edges that break the condition (used by
///     one triangle only, by more than two, or twice in the same direction).
/// @throws std::invalid_argument if a triangle refers to a vertex that does not exist.
bool IsClosed(const TriangleMesh& mesh, int* open_edges = nullptr);

/// The mass properties of the uniform solid the mesh encloses, in the mesh's frame.
/// A mesh oriented inside out (all normals inward, a negative total volume) is accepted and
/// flipped: exporters disagree about winding, and the enclosed solid is the same. Only the
/// total's sign is looked at, never one shell's, so a hollow part (an outer shell facing out,
/// an inner one facing into the cavity) comes out as the outer solid minus the cavity.
/// @param density  rho (kg/m^3), finite and > 0.
/// @throws MeshError if the mesh has no triangles, has non-finite vertices, is not closed
///     (naming the number of open edges), or encloses no volume.
/// @throws std::invalid_argument if density is not finite and > 0, or a triangle refers to a
///     vertex that does not exist.
MassProperties MeshProperties(const TriangleMesh& mesh, double density);

}  // namespace twinblocks::multibody
