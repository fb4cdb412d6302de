#include "physics/grasp/object_mesh.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>

#include "physics/grasp/barrett_pregrasp.h"
#include "physics/grasp/grasp_input.h"
#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

using ::testing::HasSubstr;

const std::string kMeshTestData = std::string(TWINBLOCKS_TEST_DATA) + "/meshes/";

// The message of the std::invalid_argument `call` throws ("" if none).
template <typename Call>
std::string MeshError(Call call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// A box with centre c and half extents h as 8 vertices and 12 triangles, counter-clockwise seen
// from outside. Vertex k has the signs of bits 0, 1, 2 of k along x, y, z.
struct MeshCube {
  Eigen::Matrix3Xd vertices;
  Eigen::Matrix3Xi triangles;
};

MeshCube MakeMeshCube(const Eigen::Vector3d& c, const Eigen::Vector3d& h) {
  MeshCube cube{Eigen::Matrix3Xd(3, 8), Eigen::Matrix3Xi(3, 12)};
  for (int k = 0; k < 8; ++k) {
    cube.vertices.col(k) = c + Eigen::Vector3d((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(),
                                               (k & 4) ? h.z() : -h.z());
  }
  cube.triangles << 0, 0, 4, 4, 0, 0, 2, 2, 0, 0, 1, 1,  //
      2, 3, 5, 7, 1, 5, 7, 6, 4, 6, 3, 7,                //
      3, 1, 7, 6, 5, 4, 3, 7, 6, 2, 7, 5;
  return cube;
}

MeshCube ReferenceMeshCube() {
  return MakeMeshCube(ReferenceObjectCentre(ReferenceObject::kCube),
                      Eigen::Vector3d::Constant(0.5 * kReferenceCubeEdge));
}

// The reference cube as a 12-triangle mesh: accepted; at spacing 0.012 each triangle (area
// 0.0032 m^2) is divided into round(sqrt(0.0032) / 0.012)^2 = 25 triangles, and the five faces
// above the table give 250 points, every one on the cube (1e-15 m) with its face's outward
// normal, none on an edge.
TEST(ObjectMeshTest, CubeMeshIsSampledOnItsFaces) {
  const MeshCube cube = ReferenceMeshCube();
  EXPECT_NO_THROW(CheckClosedTriangleMesh(cube.vertices, cube.triangles));
  const SurfaceSamples s =
      SampleTriangleMeshSurface(cube.vertices, cube.triangles, kReferenceSpacing);
  ASSERT_EQ(s.p_W.cols(), 250);
  EXPECT_NO_THROW(CheckOnReferenceObject(ReferenceObject::kCube, s.p_W, 1e-15));
  const Eigen::Vector3d c = ReferenceObjectCentre(ReferenceObject::kCube);
  for (Eigen::Index i = 0; i < s.p_W.cols(); ++i) {
    const Eigen::Vector3d d = s.p_W.col(i) - c;
    Eigen::Index axis = 0;
    d.cwiseAbs().maxCoeff(&axis);
    Eigen::Vector3d expected = Eigen::Vector3d::Zero();
    expected[axis] = d[axis] > 0.0 ? 1.0 : -1.0;
    EXPECT_LT((s.n_W.col(i) - expected).norm(), 1e-15) << i;
    EXPECT_GT(s.p_W(2, i), kTableClearance) << i;
    // Off the edges: the two other coordinates inside the face.
    for (int k = 0; k < 3; ++k) {
      if (k != axis) {
        EXPECT_LT(std::abs(d[k]), 0.04 - 1e-3) << i;
      }
    }
  }
}

// A finer spacing gives more than kMaxTrianglePoints points: evenly spaced indices are kept,
// the same on every call.
TEST(ObjectMeshTest, ManyPointsAreSubsampledDeterministically) {
  const MeshCube cube = ReferenceMeshCube();
  const SurfaceSamples a = SampleTriangleMeshSurface(cube.vertices, cube.triangles, 0.004);
  const SurfaceSamples b = SampleTriangleMeshSurface(cube.vertices, cube.triangles, 0.004);
  EXPECT_EQ(a.p_W.cols(), kMaxTrianglePoints);
  EXPECT_EQ(a.p_W, b.p_W);
  EXPECT_EQ(a.n_W, b.n_W);
  EXPECT_NO_THROW(CheckOnReferenceObject(ReferenceObject::kCube, a.p_W, 1e-15));
}

// Algorithm 2 on the cube given as a mesh behaves like the primitive cube: a near equilateral
// triangle (Q1 <= 0.3) close to the centre, and, as on the primitive, no palm distance within
// 2 deg of the coupling for all three fingers; the nearest misses are at about the same L
// (measured: mesh L = 0.090 m, worst coupling error 9.15 deg; primitive 0.091 m, 9.62 deg).
TEST(ObjectMeshTest, CubeMeshGivesAPregraspLikeThePrimitive) {
  const MeshCube cube = ReferenceMeshCube();
  const SurfaceSamples mesh =
      SampleTriangleMeshSurface(cube.vertices, cube.triangles, kReferenceSpacing);
  const SurfaceSamples box = SampleReferenceObject(ReferenceObject::kCube);
  const Eigen::Vector3d c = ReferenceObjectCentre(ReferenceObject::kCube);
  const BarrettPregrasp from_mesh = PlanBarrettPregrasp(mesh.p_W, mesh.n_W, c);
  const BarrettPregrasp from_box = PlanBarrettPregrasp(box.p_W, box.n_W, c);
  std::printf(
      "[ mesh cube] triangle (%d %d %d) Q1 %.4f Q2 %.5f m n (%.3f %.3f %.3f) L %.3f m spread "
      "%.2f deg coupling error %.2f/%.2f/%.2f deg off plane %.2f/%.2f/%.2f mm coupled tip off "
      "%.2f/%.2f/%.2f mm; primitive Q1 %.4f Q2 %.5f m L %.3f m\n",
      from_mesh.triangle[0], from_mesh.triangle[1], from_mesh.triangle[2], from_mesh.q1,
      from_mesh.q2, from_mesh.n_O.x(), from_mesh.n_O.y(), from_mesh.n_O.z(),
      from_mesh.palm_distance, from_mesh.spread * 180.0 / std::numbers::pi,
      from_mesh.coupling_error_deg[0], from_mesh.coupling_error_deg[1],
      from_mesh.coupling_error_deg[2], from_mesh.plane_distance[0] * 1e3,
      from_mesh.plane_distance[1] * 1e3, from_mesh.plane_distance[2] * 1e3,
      from_mesh.coupled_tip_distance[0] * 1e3, from_mesh.coupled_tip_distance[1] * 1e3,
      from_mesh.coupled_tip_distance[2] * 1e3, from_box.q1, from_box.q2, from_box.palm_distance);
  EXPECT_EQ(from_mesh.found, from_box.found);
  EXPECT_FALSE(from_mesh.found);
  EXPECT_THAT(from_mesh.message, HasSubstr("the least worst coupling error is "));
  EXPECT_LE(from_mesh.q1, 0.3);
  EXPECT_LT(from_mesh.q2, 0.005);
  EXPECT_NEAR(from_mesh.palm_distance, from_box.palm_distance, 0.005);
}

// Each refusal names what is wrong and where.
TEST(ObjectMeshTest, BadMeshesAreRefused) {
  const MeshCube cube = ReferenceMeshCube();
  EXPECT_EQ(MeshError([&] {
              CheckClosedTriangleMesh(cube.vertices.leftCols(3), cube.triangles.leftCols(1));
            }),
            "grasp: triangle mesh has 3 vertices and 1 triangles; a closed surface needs at "
            "least 4 of each");

  MeshCube bad = cube;
  bad.triangles(2, 5) = 8;
  EXPECT_EQ(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
            "grasp: mesh triangle 5 refers to vertex 8; the mesh has vertices 0 to 7");

  bad = cube;
  bad.vertices(1, 3) = NAN;
  EXPECT_THAT(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
              HasSubstr("grasp: mesh vertex 3 ("));
  EXPECT_THAT(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
              HasSubstr(") is not finite"));

  bad = cube;
  bad.vertices.col(2) = 0.5 * (bad.vertices.col(0) + bad.vertices.col(3));  // 0, 2, 3 in a line
  EXPECT_THAT(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
              HasSubstr("grasp: mesh triangle 0 (vertices 0, 2, 3) is degenerate: area "));

  bad = cube;
  bad.triangles.conservativeResize(3, 11);  // the last triangle (1, 7, 5) removed: open
  EXPECT_EQ(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
            "grasp: mesh edge (5, 7) of triangle 2 is shared by 1 triangle(s); a closed "
            "manifold surface has every edge in exactly two");

  bad = cube;
  bad.triangles.conservativeResize(3, 14);  // a flap (0, 1, 7), (0, 7, 1) hung on edge (0, 1)
  bad.triangles.col(12) << 0, 1, 7;
  bad.triangles.col(13) << 0, 7, 1;
  EXPECT_EQ(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
            "grasp: mesh edge (1, 0) of triangle 1 is shared by 4 triangle(s); a closed "
            "manifold surface has every edge in exactly two");

  bad = cube;
  std::swap(bad.triangles(1, 3), bad.triangles(2, 3));  // triangle 3 turned inside out
  EXPECT_EQ(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
            "grasp: mesh triangles 2 and 3 both run edge (7, 4) from vertex 7 to vertex 4; the "
            "orientation is inconsistent (each edge must be run once each way)");

  bad = cube;
  bad.triangles.row(1).swap(bad.triangles.row(2));  // every triangle turned: inside out
  EXPECT_EQ(MeshError([&] { CheckClosedTriangleMesh(bad.vertices, bad.triangles); }),
            "grasp: triangle mesh encloses a volume of -0.000512 m^3; expected a positive volume "
            "(triangles counter-clockwise seen from outside; a negative volume is an inside-out "
            "mesh)");

  EXPECT_EQ(MeshError([&] { SampleTriangleMeshSurface(cube.vertices, cube.triangles, 0.0); }),
            "grasp: mesh sampling spacing 0 must be positive and finite");
  EXPECT_EQ(MeshError([&] { SampleTriangleMeshSurface(cube.vertices, cube.triangles, 1e-5); }),
            "grasp: sampling the mesh's faces at spacing 1e-05 m gives more than 1000000 points "
            "(kMaxMeshSamples); use a larger spacing");
  EXPECT_EQ(
      MeshError([&] { SampleTriangleMeshSurface(cube.vertices, cube.triangles, 0.012, 1.0); }),
      "grasp: no point of the mesh's faces lies above z_min = 1 m");
}

// Mesh files through multibody::LoadMesh: the unit cube of tests/data (0 <= x, y, z <= 1 m)
// moved by 1 m along x is sampled on its surface; an open STL, a file that is not a mesh and a
// missing file are refused with one line naming the file.
TEST(ObjectMeshTest, MeshFiles) {
  const multibody::Pose X_WM = multibody::Pose::Translation({1.0, 0.0, 0.0});
  const SurfaceSamples s = SampleMeshFileSurface(kMeshTestData + "cube.stl", X_WM, 0.1);
  EXPECT_EQ(s.p_W.cols(), kMaxTrianglePoints);
  EXPECT_NO_THROW(CheckContactsOnBox(s.p_W, multibody::Pose::Translation({1.5, 0.5, 0.5}),
                                     Eigen::Vector3d::Constant(0.5), 1e-12));
  const std::string open =
      MeshError([&] { SampleMeshFileSurface(kMeshTestData + "cube_with_hole.stl", X_WM, 0.1); });
  EXPECT_THAT(open, HasSubstr("is shared by 1 triangle(s)"));
  EXPECT_THAT(open, HasSubstr("(mesh file '" + kMeshTestData + "cube_with_hole.stl')"));
  EXPECT_THAT(
      MeshError([&] { SampleMeshFileSurface(kMeshTestData + "not_a_mesh.stl", X_WM, 0.1); }),
      HasSubstr("grasp: mesh file '" + kMeshTestData + "not_a_mesh.stl'"));
  EXPECT_EQ(MeshError([&] { SampleMeshFileSurface(kMeshTestData + "missing.stl", X_WM, 0.1); }),
            "grasp: mesh file '" + kMeshTestData + "missing.stl' not found");
  EXPECT_EQ(open.find('\n'), std::string::npos);
}

// The volume centroid of a box is its centre; of a tetrahedron, the mean of its vertices.
TEST(ObjectMeshTest, ClosedMeshCentroidIsTheMassCentre) {
  const MeshCube cube =
      MakeMeshCube(Eigen::Vector3d(0.6, -0.1, 0.2), Eigen::Vector3d(0.03, 0.02, 0.05));
  EXPECT_LT(
      (CalcClosedMeshCentroid(cube.vertices, cube.triangles) - Eigen::Vector3d(0.6, -0.1, 0.2))
          .norm(),
      1e-15);
  // A tetrahedron: the mean of its four vertices.
  Eigen::Matrix3Xd v(3, 4);
  v << 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1;
  v.colwise() += Eigen::Vector3d(0.5, 0.2, 0.1);
  Eigen::Matrix3Xi t(3, 4);
  t << 0, 0, 0, 1, 2, 1, 3, 2, 1, 3, 2, 3;
  EXPECT_LT((CalcClosedMeshCentroid(v, t) - v.rowwise().mean()).norm(), 1e-15);
}

TEST(ObjectMeshTest, KeepAwayFromEdgesLeavesFacePointsAtLeastTheMarginFromEveryEdge) {
  const SurfaceSamples all = SampleReferenceObject(ReferenceObject::kCube);
  const SurfaceSamples kept = KeepAwayFromEdges(ReferenceObject::kCube, all, 0.01);
  ASSERT_GT(kept.p_W.cols(), 0);
  EXPECT_LT(kept.p_W.cols(), all.p_W.cols());
  const Eigen::Vector3d c = ReferenceObjectCentre(ReferenceObject::kCube);
  for (Eigen::Index i = 0; i < kept.p_W.cols(); ++i) {
    const Eigen::Vector3d r = kept.p_W.col(i) - c;
    for (int axis = 0; axis < 3; ++axis) {
      if (std::abs(kept.n_W(axis, i)) < 0.5) EXPECT_LE(std::abs(r[axis]), 0.03 + 1e-12) << i;
    }
  }
  const SurfaceSamples sphere = SampleReferenceObject(ReferenceObject::kSphere);
  EXPECT_EQ(KeepAwayFromEdges(ReferenceObject::kSphere, sphere, 0.01).p_W.cols(),
            sphere.p_W.cols());
  EXPECT_THROW(KeepAwayFromEdges(ReferenceObject::kCube, all, -0.001), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
