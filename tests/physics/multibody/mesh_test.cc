#include "physics/multibody/mesh.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using ::testing::HasSubstr;
using testing::RelativeError;

const std::string kMeshes = std::string(TWINBLOCKS_TEST_DATA) + "/meshes/";

// The box [lo, hi] as 12 outward triangles.
TriangleMesh BoxMesh(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi) {
  TriangleMesh mesh;
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.emplace_back((i & 4) ? hi.x() : lo.x(), (i & 2) ? hi.y() : lo.y(),
                               (i & 1) ? hi.z() : lo.z());
  }
  const int quads[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (const auto& q : quads) {
    mesh.triangles.push_back({q[0], q[1], q[2]});
    mesh.triangles.push_back({q[0], q[2], q[3]});
  }
  return mesh;
}

// A box's inertia about its centre, from the textbook formula.
Eigen::Matrix3d BoxInertia(double mass, const Eigen::Vector3d& size) {
  const Eigen::Vector3d s2 = size.cwiseProduct(size);
  return Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal() *
         (mass / 12.0);
}

// Writes `mesh` as a binary STL: 80-byte header, uint32 count, then per triangle the normal
// and three corners as float32 and a uint16 attribute, little-endian (as on x86).
void WriteBinaryStl(const TriangleMesh& mesh, const std::string& path, const char* header) {
  std::ofstream out(path, std::ios::binary);
  char head[80] = {};
  std::memcpy(head, header, std::min(std::strlen(header), sizeof head));
  out.write(head, sizeof head);
  const auto count = static_cast<std::uint32_t>(mesh.triangles.size());
  out.write(reinterpret_cast<const char*>(&count), 4);
  for (const auto& t : mesh.triangles) {
    const Eigen::Vector3d& a = mesh.vertices[t[0]];
    const Eigen::Vector3d& b = mesh.vertices[t[1]];
    const Eigen::Vector3d& c = mesh.vertices[t[2]];
    const Eigen::Vector3d n = (b - a).cross(c - a).normalized();
    for (const Eigen::Vector3d* v : {&n, &a, &b, &c}) {
      const float xyz[3] = {static_cast<float>(v->x()), static_cast<float>(v->y()),
                            static_cast<float>(v->z())};
      out.write(reinterpret_cast<const char*>(xyz), sizeof xyz);
    }
    const std::uint16_t attribute = 0;
    out.write(reinterpret_cast<const char*>(&attribute), 2);
  }
}

std::string LoadError(const std::string& path) {
  try {
    LoadMesh(path);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no exception";
}

std::string PropertiesError(const TriangleMesh& mesh) {
  try {
    MeshProperties(mesh, 1000.0);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no exception";
}

// The 36 corners of the 12 facets merge into the cube's 8 vertices, which is what makes the
// STL checkable; then the unit cube's properties hold to rounding (1e-14).
TEST(MeshTest, AsciiStlCube) {
  const TriangleMesh mesh = LoadMesh(kMeshes + "cube.stl");
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_EQ(mesh.source, kMeshes + "cube.stl");
  EXPECT_TRUE(IsClosed(mesh));
  const MassProperties p = MeshProperties(mesh, 2700.0);
  EXPECT_NEAR(p.volume, 1.0, 1e-14);
  EXPECT_NEAR(p.mass, 2700.0, 1e-11);
  EXPECT_LT((p.com - Eigen::Vector3d::Constant(0.5)).norm(), 1e-14);
  EXPECT_LT(RelativeError(p.inertia_com, BoxInertia(2700.0, Eigen::Vector3d::Ones())), 1e-14);
}

// Written here, so the test owns the bytes. The coordinates are dyadic fractions, exact in
// float32, so the result is exact to double rounding (1e-14).
TEST(MeshTest, BinaryStlBox) {
  const Eigen::Vector3d lo(0.75, -2.125, 0.5), hi(1.25, -1.875, 2.5);
  for (const char* header : {"binary STL written by mesh_test", "solid but binary after all"}) {
    SCOPED_TRACE(header);
    const std::string path = ::testing::TempDir() + "twinblocks_mesh_test_box.stl";
    WriteBinaryStl(BoxMesh(lo, hi), path, header);
    const TriangleMesh mesh = LoadMesh(path);
    std::filesystem::remove(path);
    EXPECT_EQ(mesh.vertices.size(), 8u);
    EXPECT_EQ(mesh.triangles.size(), 12u);
    const MassProperties p = MeshProperties(mesh, 1000.0);
    const Eigen::Vector3d size = hi - lo;
    EXPECT_NEAR(p.volume, size.prod(), 1e-14);
    EXPECT_LT((p.com - 0.5 * (lo + hi)).norm(), 1e-14);
    EXPECT_LT(RelativeError(p.inertia_com, BoxInertia(p.mass, size)), 1e-14);
  }
}

// The right tetrahedron with legs a = 1, b = 2, c = 3 along x, y, z. Its moments about the
// right-angle corner come from direct integration (e.g. Tonon 2004, or E[x^2] = a^2/10,
// E[x y] = a b / 20 over the tetrahedron): int x^2 dV = a^3 b c / 60,
// int x y dV = a^2 b^2 c / 120, and so on; V = a b c / 6 = 1, centroid (a, b, c) / 4.
// 1e-14 relative.
TEST(MeshTest, ObjTetrahedron) {
  const TriangleMesh mesh = LoadMesh(kMeshes + "tetrahedron.obj");
  EXPECT_EQ(mesh.vertices.size(), 4u);
  EXPECT_EQ(mesh.triangles.size(), 4u);
  const double a = 1.0, b = 2.0, c = 3.0, rho = 1500.0;
  const double V = a * b * c / 6.0;
  Eigen::Matrix3d second;  // int x x^T dV about the corner
  second << a * a * a * b * c / 60, a * a * b * b * c / 120, a * a * b * c * c / 120,  //
      a * a * b * b * c / 120, a * b * b * b * c / 60, a * b * b * c * c / 120,        //
      a * a * b * c * c / 120, a * b * b * c * c / 120, a * b * c * c * c / 60;
  const Eigen::Vector3d com(a / 4, b / 4, c / 4);
  const Eigen::Matrix3d second_com = second - V * com * com.transpose();
  const Eigen::Matrix3d inertia =
      rho * (second_com.trace() * Eigen::Matrix3d::Identity() - second_com);

  const MassProperties p = MeshProperties(mesh, rho);
  EXPECT_NEAR(p.volume, 1.0, 1e-15);
  EXPECT_NEAR(p.mass, rho, 1e-12);
  EXPECT_LT((p.com - com).norm(), 1e-15);
  EXPECT_LT(RelativeError(p.inertia_com, inertia), 1e-14);
  // A product of inertia is -int x y dV about the CoM: -rho (a^2 b^2 c / 120 - V a b / 16),
  // which is positive although it is negative about the corner.
  EXPECT_NEAR(p.inertia_com(0, 1), 37.5, 1e-12);
}

// OBJ quads are triangulated by assimp; a cube of side 2 off the origin.
TEST(MeshTest, ObjQuadCubeOffOrigin) {
  const TriangleMesh mesh = LoadMesh(kMeshes + "cube_quads.obj");
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  const MassProperties p = MeshProperties(mesh, 1000.0);
  EXPECT_NEAR(p.volume, 8.0, 1e-13);
  EXPECT_LT((p.com - Eigen::Vector3d(3.0, 0.0, 1.5)).norm(), 1e-14);
  EXPECT_LT(RelativeError(p.inertia_com, BoxInertia(8000.0, Eigen::Vector3d::Constant(2.0))),
            1e-14);
}

// Moving a mesh moves its centre of mass and leaves its inertia about the CoM alone, even far
// from the origin (1e-12 relative at 1 km off, where tetrahedra from the origin would lose
// about six digits to cancellation).
TEST(MeshTest, TranslationMovesComOnly) {
  const TriangleMesh mesh = LoadMesh(kMeshes + "tetrahedron.obj");
  const MassProperties p = MeshProperties(mesh, 1000.0);
  for (const Eigen::Vector3d& offset :
       {Eigen::Vector3d(0.3, -1.2, 4.0), Eigen::Vector3d(1000.0, -750.0, 250.0)}) {
    SCOPED_TRACE(offset.transpose());
    TriangleMesh moved = mesh;
    for (auto& v : moved.vertices) v += offset;
    const MassProperties q = MeshProperties(moved, 1000.0);
    EXPECT_NEAR(q.volume, p.volume, 1e-12 * p.volume);
    EXPECT_LT((q.com - (p.com + offset)).norm(), 1e-12 * offset.norm());
    EXPECT_LT(RelativeError(q.inertia_com, p.inertia_com), 1e-12);
  }
}

// Inward normals (every triangle wound the other way) describe the same solid.
TEST(MeshTest, InsideOutMeshIsFlipped) {
  TriangleMesh mesh = BoxMesh(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 2, 3));
  const MassProperties p = MeshProperties(mesh, 1000.0);
  for (auto& t : mesh.triangles) std::swap(t[1], t[2]);
  EXPECT_TRUE(IsClosed(mesh));
  const MassProperties q = MeshProperties(mesh, 1000.0);
  EXPECT_NEAR(q.volume, 6.0, 1e-14);
  EXPECT_NEAR(q.mass, p.mass, 1e-10);
  EXPECT_LT((q.com - p.com).norm(), 1e-15);
  EXPECT_LT(RelativeError(q.inertia_com, p.inertia_com), 1e-15);
}

// A hollow part is an outer surface facing out plus an inner one facing into the cavity (so
// inward as seen from the solid's centre): the inner shell's tetrahedra subtract, and the
// result is the outer box minus the inner one (1e-14 relative). This is why only the total
// volume's sign is flipped, never one shell's.
TEST(MeshTest, CavitySubtracts) {
  const Eigen::Vector3d lo(-1, -2, -3), hi(1, 2, 3), in_lo(-0.5, -1, 0), in_hi(0.5, 1, 2);
  TriangleMesh mesh = BoxMesh(lo, hi);
  TriangleMesh inner = BoxMesh(in_lo, in_hi);
  const int offset = static_cast<int>(mesh.vertices.size());
  for (const auto& v : inner.vertices) mesh.vertices.push_back(v);
  for (const auto& t : inner.triangles) {
    mesh.triangles.push_back({t[0] + offset, t[2] + offset, t[1] + offset});
  }
  EXPECT_TRUE(IsClosed(mesh));
  const double rho = 1000.0;
  const MassProperties p = MeshProperties(mesh, rho);
  const double v_out = (hi - lo).prod(), v_in = (in_hi - in_lo).prod();
  EXPECT_NEAR(p.volume, v_out - v_in, 1e-14 * v_out);
  const Eigen::Vector3d c_in = 0.5 * (in_lo + in_hi);
  const Eigen::Vector3d com = -v_in * c_in / (v_out - v_in);  // the outer box is centred
  EXPECT_LT((p.com - com).norm(), 1e-14);
  // Each box's inertia moved to the common CoM, then subtracted.
  auto about_com = [&](double m, const Eigen::Vector3d& size, const Eigen::Vector3d& centre) {
    const Eigen::Vector3d d = centre - com;
    return Eigen::Matrix3d(BoxInertia(m, size) +
                           m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  const Eigen::Matrix3d expected = about_com(rho * v_out, hi - lo, Eigen::Vector3d::Zero()) -
                                   about_com(rho * v_in, in_hi - in_lo, c_in);
  EXPECT_LT(RelativeError(p.inertia_com, expected), 1e-14);
}

// One triangle missing from the cube leaves its three edges open.
TEST(MeshTest, MeshWithHoleIsAnError) {
  const std::string path = kMeshes + "cube_with_hole.stl";
  const TriangleMesh mesh = LoadMesh(path);
  int open_edges = -1;
  EXPECT_FALSE(IsClosed(mesh, &open_edges));
  EXPECT_EQ(open_edges, 3);
  const std::string message = PropertiesError(mesh);
  EXPECT_THAT(message, HasSubstr("mesh file '" + path + "'"));
  EXPECT_THAT(message, HasSubstr("not a closed surface: 3 edge(s)"));
}

// A closed surface with one triangle wound the wrong way is not consistently oriented: its
// three edges are each traversed twice in the same direction.
TEST(MeshTest, InconsistentOrientationIsAnError) {
  TriangleMesh mesh = BoxMesh(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 1));
  std::swap(mesh.triangles[5][1], mesh.triangles[5][2]);
  int open_edges = -1;
  EXPECT_FALSE(IsClosed(mesh, &open_edges));
  EXPECT_EQ(open_edges, 3);
  EXPECT_THAT(PropertiesError(mesh), HasSubstr("mesh is not a closed surface: 3 edge(s)"));
}

// Two triangles back to back are closed by the edge rule but enclose nothing.
TEST(MeshTest, ZeroVolumeIsAnError) {
  TriangleMesh sheet;
  sheet.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  sheet.triangles = {{0, 1, 2}, {0, 2, 1}};
  EXPECT_TRUE(IsClosed(sheet));
  EXPECT_THAT(PropertiesError(sheet), HasSubstr("mesh encloses no volume"));
}

TEST(MeshTest, EmptyMeshAndBadInputs) {
  EXPECT_THAT(PropertiesError(TriangleMesh{}), HasSubstr("mesh has no triangles"));
  TriangleMesh bad_index = BoxMesh(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 1));
  bad_index.triangles[3][2] = 8;
  EXPECT_THROW(MeshProperties(bad_index, 1000.0), std::invalid_argument);
  EXPECT_THROW(MeshProperties(BoxMesh(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 1)), -1.0),
               std::invalid_argument);
  TriangleMesh not_finite = BoxMesh(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 1, 1));
  not_finite.vertices[7].x() = std::nan("");
  EXPECT_THAT(PropertiesError(not_finite), HasSubstr("not finite"));
}

TEST(MeshTest, MissingFileNamesTheFile) {
  const std::string path = kMeshes + "no_such_part.stl";
  EXPECT_EQ(LoadError(path), "mesh file '" + path + "' not found");
  EXPECT_THAT(LoadError(kMeshes), HasSubstr("is not a regular file"));
}

TEST(MeshTest, UnreadableFileNamesTheFile) {
  const std::string path = kMeshes + "not_a_mesh.stl";
  const std::string message = LoadError(path);
  EXPECT_THAT(message, HasSubstr("mesh file '" + path + "'"));
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

// An OBJ with vertices and a line but no faces reads fine and has nothing to integrate.
TEST(MeshTest, FileWithoutTrianglesIsAnError) {
  const std::string path = ::testing::TempDir() + "twinblocks_mesh_test_lines.obj";
  {
    std::ofstream out(path);
    out << "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n";
  }
  const std::string message = LoadError(path);
  std::filesystem::remove(path);
  EXPECT_THAT(message, HasSubstr("mesh file '" + path + "'"));
  EXPECT_EQ(message, "mesh file '" + path + "' has no triangles");
}

}  // namespace
}  // namespace twinblocks::multibody
