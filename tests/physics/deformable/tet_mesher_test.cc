// Tetrahedral meshes by Gmsh (physics/deformable/tet_mesher.h): primitives fill their volume,
// a closed surface is filled with its triangles kept, and bad requests (a surface that is not
// closed, a non-positive or too fine element size) are one-line errors.

#include "physics/deformable/tet_mesher.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace twinblocks::deformable {
namespace {

double TotalVolume(const TetMesh& mesh) {
  double v = 0.0;
  for (const auto& t : mesh.tets) {
    const double s = SignedVolume(mesh.nodes.col(t[0]), mesh.nodes.col(t[1]), mesh.nodes.col(t[2]),
                                  mesh.nodes.col(t[3]));
    EXPECT_GT(std::abs(s), 0.0);
    v += std::abs(s);
  }
  return v;
}

multibody::TriangleMesh CubeSurface(double a, bool with_hole = false) {
  multibody::TriangleMesh m;
  for (int i = 0; i < 8; ++i) {
    m.vertices.emplace_back((i & 1 ? 0.5 : -0.5) * a, (i & 2 ? 0.5 : -0.5) * a,
                            (i & 4 ? 0.5 : -0.5) * a);
  }
  // Outward, counter-clockwise seen from outside.
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  if (with_hole) m.triangles.pop_back();
  return m;
}

TEST(TetMesherTest, PrimitivesFillTheirVolume) {
  const TetMesh box = MeshPrimitive(Primitive::kBox, {0.08, 0.08, 0.08}, 0.02);
  EXPECT_NEAR(TotalVolume(box), 0.08 * 0.08 * 0.08, 1e-12);
  const TetMesh sphere = MeshPrimitive(Primitive::kSphere, {0.04, 0, 0}, 0.015);
  const double ball = 4.0 / 3.0 * M_PI * std::pow(0.04, 3);
  EXPECT_NEAR(TotalVolume(sphere) / ball, 1.0, 0.1);  // the inscribed polyhedron
  EXPECT_LE(TotalVolume(sphere), ball);
  for (int i = 0; i < sphere.nodes.cols(); ++i) {
    EXPECT_LE(sphere.nodes.col(i).norm(), 0.04 + 1e-9);
  }
  const TetMesh cylinder = MeshPrimitive(Primitive::kCylinder, {0.035, 0.14, 0}, 0.02);
  EXPECT_NEAR(TotalVolume(cylinder) / (M_PI * 0.035 * 0.035 * 0.14), 1.0, 0.1);
  // A body of it: the masses add up to rho V.
  const MassSpringBody body = MassSpringBody::FromTetMesh(sphere, {4.928e6, 100.0});
  EXPECT_NEAR(body.total_mass(), 100.0 * TotalVolume(sphere), 1e-12);
}

TEST(TetMesherTest, AClosedSurfaceIsFilled) {
  const TetMesh cube = MeshSurface(CubeSurface(0.1), 0.05);
  EXPECT_NEAR(TotalVolume(cube), 1e-3, 1e-15);
}

TEST(TetMesherTest, BadRequestsAreOneLineErrors) {
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const TetMeshError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  multibody::TriangleMesh open = CubeSurface(0.1, true);
  open.source = "open.stl";
  const std::string not_closed = message([&] { MeshSurface(open, 0.05); });
  EXPECT_NE(not_closed.find("'open.stl': the surface is not closed (3 edges"), std::string::npos)
      << not_closed;
  EXPECT_NE(message([] {
              MeshPrimitive(Primitive::kBox, {0.1, 0.1, 0.1}, 0.0);
            }).find("element size must be > 0"),
            std::string::npos);
  EXPECT_NE(message([] {
              MeshPrimitive(Primitive::kBox, {1, 1, 1}, 1e-4);
            }).find("more than"),
            std::string::npos);
  EXPECT_NE(message([] {
              MeshPrimitive(Primitive::kSphere, {-1, 0, 0}, 0.1);
            }).find("no volume"),
            std::string::npos);
  for (const std::string& m : {not_closed}) EXPECT_EQ(m.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace twinblocks::deformable
