#pragma once

// Candidate contact points, with outward normals, on an object given as a closed triangle mesh:
// the "closed mesh" input of Algorithm 2 of Zaidi et al. 2020 ("Grasp Planning Pipeline for
// Robust Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems"),
// which starts from an object (primitive or closed mesh) and candidate points on its surface.
// The mesh is checked first: the normals are only outward, and the points only on one
// surface, if the mesh is a closed, consistently oriented surface enclosing a positive volume.

#include <Eigen/Core>
#include <string>

#include "physics/grasp/object_surface.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::grasp {

/// The most points the faces are divided into before the z filter and the subsampling
/// (SampleTriangleMeshSurface): it bounds the time and memory a small spacing takes.
inline constexpr int kMaxMeshSamples = 1000000;
/// A triangle whose height over its longest edge is at most this fraction of that edge
/// (collinear or coincident vertices) is degenerate.
inline constexpr double kMeshDegenerateTolerance = 1e-10;

/// Checks that a triangle mesh bounds a solid: at least 4 vertices and 4 triangles, every index
/// in range, every coordinate finite, no degenerate triangle, every edge shared by exactly two
/// triangles (closed and manifold), each edge run once each way by its two triangles (a
/// consistent orientation), and a positive enclosed volume (counter-clockwise seen from
/// outside; relative to the bounding box's diagonal cubed, more than 1e-12).
/// @param vertices   positions (3 x nv, m).
/// @param triangles  vertex indices (3 x nt), counter-clockwise seen from outside.
/// @throws std::invalid_argument with one line saying what is wrong and where (the triangle's
///         index, the edge's vertex indices) on the first problem found, in the order above.
void CheckClosedTriangleMesh(const Eigen::Matrix3Xd& vertices, const Eigen::Matrix3Xi& triangles);

/// Points on the faces of a closed triangle mesh (checked by CheckClosedTriangleMesh) with the
/// faces' outward unit normals. Each triangle of area A is divided into n^2 congruent triangles,
/// n = max(1, round(sqrt(A) / spacing)) (one point per spacing^2 of surface, as on the boxes of
/// SampleBoxSurface), and the centroid of each becomes a point, so no point lies on an edge,
/// where the normal is not defined. Points with z <= z_min are dropped; if more than
/// kMaxTrianglePoints remain, the points at indices floor(k m / kMaxTrianglePoints), k = 0 ..
/// kMaxTrianglePoints - 1, of the m in triangle order are kept.
/// @throws std::invalid_argument as CheckClosedTriangleMesh, if spacing is not positive and
///         finite, z_min not finite, the faces would give more than kMaxMeshSamples points, or
///         no point remains above z_min.
SurfaceSamples SampleTriangleMeshSurface(const Eigen::Matrix3Xd& vertices,
                                         const Eigen::Matrix3Xi& triangles, double spacing,
                                         double z_min = kTableClearance);

/// A closed triangle mesh read from a file and placed in W.
struct PlacedMesh {
  Eigen::Matrix3Xd vertices;   ///< (3 x nv) in W (m)
  Eigen::Matrix3Xi triangles;  ///< (3 x nt) vertex indices, counter-clockwise from outside
};

/// Reads a mesh file (STL, ASCII or binary, OBJ, or another format multibody::LoadMesh reads;
/// coordinates in m, vertices at the same position merged), places it in W by X_WM and checks
/// it (CheckClosedTriangleMesh).
/// @throws std::invalid_argument with one line naming the file: it cannot be read, the pose is
///         not a rigid transform, or the mesh is not closed and outward.
PlacedMesh LoadPlacedMesh(const std::string& path, const multibody::Pose& X_WM);

/// SampleTriangleMeshSurface of a mesh file (STL, ASCII or binary, OBJ, or another format
/// multibody::LoadMesh reads; coordinates in m, vertices at the same position merged), placed in
/// W by X_WM.
/// @throws std::invalid_argument if the file cannot be read (multibody::LoadMesh's one-line
///         message) or as SampleTriangleMeshSurface.
SurfaceSamples SampleMeshFileSurface(const std::string& path, const multibody::Pose& X_WM,
                                     double spacing, double z_min = kTableClearance);

/// The volume centroid of a closed triangle mesh, its mass centre at uniform density:
/// sum over triangles (a, b, c) of (a + b + c) / 4 det[a b c] / sum of det[a b c] (the signed
/// tetrahedra from the origin).
/// @throws std::invalid_argument as CheckClosedTriangleMesh.
Eigen::Vector3d CalcClosedMeshCentroid(const Eigen::Matrix3Xd& vertices,
                                       const Eigen::Matrix3Xi& triangles);

}  // namespace twinblocks::grasp
