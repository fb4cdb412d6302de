// MakeConvexHull: the hull of known solids, the invariants of a convex polyhedron on random
// clouds (every point inside, Euler's formula, convex outward faces), and degenerate input.

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "physics/contact/collision.h"

namespace twinblocks::contact {
namespace {

std::vector<Eigen::Vector3d> CubeCorners(double half) {
  std::vector<Eigen::Vector3d> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back(i & 1 ? half : -half, i & 2 ? half : -half, i & 4 ? half : -half);
  }
  return corners;
}

// The invariants of a convex polyhedron, and every input point inside it.
void ExpectValidHull(const ConvexHull& hull, const std::vector<Eigen::Vector3d>& points) {
  ASSERT_EQ(hull.faces.size(), hull.normals.size());
  double extent = 0.0;
  for (const Eigen::Vector3d& p : points) extent = std::max(extent, p.norm());
  const double eps = 1e-9 * extent;
  // Every hull vertex is an input point.
  for (const Eigen::Vector3d& v : hull.vertices) {
    EXPECT_TRUE(std::any_of(points.begin(), points.end(),
                            [&](const Eigen::Vector3d& p) { return p == v; }));
  }
  std::map<std::pair<int, int>, int> edges;  // directed edge -> count
  std::set<int> used;
  for (size_t f = 0; f < hull.faces.size(); ++f) {
    const std::vector<int>& face = hull.faces[f];
    const Eigen::Vector3d& n = hull.normals[f];
    ASSERT_GE(face.size(), 3u);
    EXPECT_NEAR(n.norm(), 1.0, 1e-12);
    for (size_t k = 0; k < face.size(); ++k) {
      const Eigen::Vector3d &a = hull.vertices[face[k]],
                            &b = hull.vertices[face[(k + 1) % face.size()]],
                            &c = hull.vertices[face[(k + 2) % face.size()]];
      // Planar, and convex counter-clockwise about the outward normal.
      EXPECT_NEAR(n.dot(a - hull.vertices[face[0]]), 0.0, 1e-6 * extent);
      EXPECT_GT(n.dot((b - a).cross(c - b)), 0.0);
      ++edges[{face[k], face[(k + 1) % face.size()]}];
      used.insert(face[k]);
    }
    // Every input point is below every face.
    const double offset = n.dot(hull.vertices[face[0]]);
    for (const Eigen::Vector3d& p : points) EXPECT_LE(n.dot(p) - offset, 1e-6 * extent + eps);
  }
  // Closed and consistently oriented: each edge once each way; V - E + F = 2.
  for (const auto& [edge, count] : edges) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(edges.count({edge.second, edge.first}), 1u);
  }
  EXPECT_EQ(used.size(), hull.vertices.size());
  const int V = static_cast<int>(hull.vertices.size()), E = static_cast<int>(edges.size()) / 2,
            F = static_cast<int>(hull.faces.size());
  EXPECT_EQ(V - E + F, 2);
  double radius = 0.0;
  for (const Eigen::Vector3d& v : hull.vertices) radius = std::max(radius, v.norm());
  EXPECT_EQ(hull.bounding_radius, radius);
}

TEST(ConvexHullTest, CubeWithInteriorAndSurfacePointsHasEightVerticesSixFaces) {
  std::vector<Eigen::Vector3d> points = CubeCorners(0.5);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> inside(-0.49, 0.49);
  for (int i = 0; i < 200; ++i) points.emplace_back(inside(rng), inside(rng), inside(rng));
  // Points on faces and edges are on the hull but are not its vertices.
  for (int axis = 0; axis < 3; ++axis) {
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    c[axis] = 0.5;
    points.push_back(c);
    points.push_back(-c);
    Eigen::Vector3d e = Eigen::Vector3d::Constant(0.5);
    e[axis] = 0.1;
    points.push_back(e);
  }
  std::shuffle(points.begin(), points.end(), rng);
  const auto hull = MakeConvexHull(points);
  EXPECT_EQ(hull->vertices.size(), 8u);
  ASSERT_EQ(hull->faces.size(), 6u);
  for (size_t f = 0; f < 6; ++f) {
    EXPECT_EQ(hull->faces[f].size(), 4u);
    EXPECT_NEAR(hull->normals[f].cwiseAbs().maxCoeff(), 1.0, 1e-15);
  }
  EXPECT_NEAR(hull->bounding_radius, std::sqrt(0.75), 1e-15);
  ExpectValidHull(*hull, points);
}

TEST(ConvexHullTest, OctahedronHasSixVerticesEightTriangles) {
  const std::vector<Eigen::Vector3d> points = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0},
                                               {0, 0, 1}, {0, 0, -1}, {0, 0, 0}, {0.2, 0.1, -0.3}};
  const auto hull = MakeConvexHull(points);
  EXPECT_EQ(hull->vertices.size(), 6u);
  EXPECT_EQ(hull->faces.size(), 8u);
  ExpectValidHull(*hull, points);
}

TEST(ConvexHullTest, RandomCloudsGiveValidHulls) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal;
  for (const int n : {4, 10, 100, 1000}) {
    SCOPED_TRACE(n);
    std::vector<Eigen::Vector3d> points;
    for (int i = 0; i < n; ++i) points.emplace_back(normal(rng), normal(rng), 0.3 * normal(rng));
    ExpectValidHull(*MakeConvexHull(points), points);
  }
}

// A tessellated cylinder (float-rounded, as a mesh file gives it): flat caps become single
// polygons, and every rim vertex is a hull vertex.
TEST(ConvexHullTest, TessellatedCylinderHasTwoPolygonCapsAndAllRimVertices) {
  constexpr int kSegments = 64;
  std::vector<Eigen::Vector3d> points;
  for (int k = 0; k < kSegments; ++k) {
    const double angle = 2.0 * M_PI * k / kSegments;
    for (const double z : {-0.2, 0.2}) {
      points.emplace_back(static_cast<float>(0.05 * std::cos(angle)),
                          static_cast<float>(0.05 * std::sin(angle)), static_cast<float>(z));
    }
  }
  const auto hull = MakeConvexHull(points);
  EXPECT_EQ(hull->vertices.size(), 2u * kSegments);
  int caps = 0;
  for (const std::vector<int>& face : hull->faces) caps += face.size() == kSegments;
  EXPECT_EQ(caps, 2);
  EXPECT_EQ(hull->faces.size(), kSegments + 2u);
  ExpectValidHull(*hull, points);
}

// Thousands of points on a sphere (all extreme) build well under a second.
TEST(ConvexHullTest, ThreeThousandPointsOnASphere) {
  std::mt19937 rng(9);
  std::normal_distribution<double> normal;
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < 3000; ++i) {
    points.push_back(Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized());
  }
  const auto start = std::chrono::steady_clock::now();
  const auto hull = MakeConvexHull(points);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "hull of 3000 points on a sphere: " << hull->faces.size() << " faces in " << seconds
            << " s\n";
  EXPECT_EQ(hull->vertices.size(), 3000u);
  ExpectValidHull(*hull, points);
}

TEST(ConvexHullTest, DegenerateInputThrows) {
  EXPECT_THROW(MakeConvexHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), std::invalid_argument);
  // Coplanar, collinear, coincident.
  EXPECT_THROW(MakeConvexHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.3, 0.2, 0}}),
               std::invalid_argument);
  EXPECT_THROW(MakeConvexHull({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}}), std::invalid_argument);
  EXPECT_THROW(MakeConvexHull({{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}), std::invalid_argument);
  EXPECT_THROW(
      MakeConvexHull(
          {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, std::numeric_limits<double>::quiet_NaN()}}),
      std::invalid_argument);
  // A hull must come from MakeConvexHull to be a shape.
  EXPECT_THROW(Shape::ConvexMesh(std::make_shared<ConvexHull>()), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::contact
