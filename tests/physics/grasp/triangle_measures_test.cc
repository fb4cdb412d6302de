#include "physics/grasp/triangle_measures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace twinblocks::grasp {
namespace {

// H1. Q1 = 3/(2 pi) sum |angle - pi/3| (Zaidi et al. 2020, eq. 1): equilateral 0; right
// isosceles (pi/2, pi/4, pi/4): 3/(2 pi) (pi/6 + pi/12 + pi/12) = 0.5; flat (pi, 0, 0):
// 3/(2 pi) (2 pi/3 + pi/3 + pi/3) = 2. Tolerance 1e-15 (a few roundings of angles ~ 1).
TEST(TriangleMeasuresTest, Q1OfThreeKnownTriangles) {
  const double h = std::sqrt(3.0) / 2.0;
  EXPECT_NEAR(CalcQ1({0, 0, 0}, {1, 0, 0}, {0.5, h, 0}), 0.0, 1e-15);
  EXPECT_NEAR(CalcQ1({0, 0, 0}, {1, 0, 0}, {0, 1, 0}), 0.5, 1e-15);
  EXPECT_NEAR(CalcQ1({0, 0, 0}, {1, 0, 0}, {2, 0, 0}), 2.0, 1e-15);
  // Coincident vertices: no angles, counted as flat.
  EXPECT_EQ(CalcQ1({0, 0, 0}, {0, 0, 0}, {1, 0, 0}), 2.0);
  // Invariant under rigid motions and scale, in 3-D.
  EXPECT_NEAR(CalcQ1({1, 2, 3}, {1, 2 + 0.1, 3}, {1, 2, 3 + 0.1}), 0.5, 1e-14);
}

// Q2 = |C_O - C_T| (eq. 2), C_T the centroid. Exact for these numbers (1e-15).
TEST(TriangleMeasuresTest, Q2IsCentroidDistance) {
  EXPECT_NEAR(CalcQ2({0, 0, 0}, {3, 0, 0}, {0, 3, 0}, {1, 1, 4}), 4.0, 1e-15);
}

// Algorithm 1: six candidates on a circle of radius 1 about the centre (two equilateral
// triangles, Q2 = 0) and three points of a shifted equilateral triangle (Q2 = 0.5): the
// chosen triangle is near-equilateral and centred; with only the shifted and skewed points
// available, the shifted triangle is chosen; with none near-equilateral, nothing is.
TEST(TriangleMeasuresTest, AlgorithmOneChoosesCentredEquilateral) {
  const double h = std::sqrt(3.0) / 2.0;
  Eigen::Matrix3Xd points(3, 5);
  points.col(0) << 0.5, 0.0, 0.0;  // shifted equilateral triangle, centroid (0.5, 0, 0)...
  points.col(1) << 0.5 + 1.0, 0.0, 0.0;
  points.col(2) << 0.5 + 0.5, h, 0.0;
  points.col(3) << -1.0, -1.0, 0.0;  // ... and two points making skewed triangles
  points.col(4) << 3.0, 0.2, 0.0;
  const Eigen::Vector3d centre(0.5 + 0.5, h / 3.0 + 0.5, 0.0);
  const GraspTriangle chosen = ChooseGraspTriangle(points, centre);
  ASSERT_TRUE(chosen.found);
  EXPECT_EQ(chosen.indices, (std::array<int, 3>{0, 1, 2}));
  EXPECT_NEAR(chosen.q1, 0.0, 1e-15);
  EXPECT_NEAR(chosen.q2, 0.5, 1e-15);

  Eigen::Matrix3Xd circle(3, 6);
  for (int i = 0; i < 6; ++i) {
    const double a = std::numbers::pi / 3.0 * i + 0.1;
    circle.col(i) << std::cos(a), std::sin(a), 0.0;
  }
  const GraspTriangle centred = ChooseGraspTriangle(circle, Eigen::Vector3d::Zero());
  ASSERT_TRUE(centred.found);
  EXPECT_NEAR(centred.q2, 0.0, 1e-15);
  EXPECT_NEAR(centred.q1, 0.0, 1e-14);
  EXPECT_EQ(centred.indices, (std::array<int, 3>{0, 2, 4}));  // the first of two in scan order
  EXPECT_EQ(centred.num_near_equilateral, 2);

  Eigen::Matrix3Xd line(3, 4);
  line << 0, 1, 2, 3, 0, 0, 0, 0.01, 0, 0, 0, 0;
  EXPECT_FALSE(ChooseGraspTriangle(line, Eigen::Vector3d::Zero()).found);
}

// Algorithm 1 where the equilateral triangle is not the answer: an exactly equilateral
// triangle far from the object's centre (Q1 = 0, Q2 = 2) and a near-equilateral one about it,
// on the unit circle at 0, 125 and 235 degrees (angles 55, 62.5, 62.5 degrees: Q1 =
// 3/(2 pi) * 10 degrees = 0.0833 <= 0.3; centroid (-0.0491, 0, 0), Q2 = 0.0491). Algorithm 1
// keeps both in Psi and chooses the centred one; no triangle mixing the two sets is near
// enough equilateral and centred to win. Tolerances: round-off, 1e-12.
TEST(TriangleMeasuresTest, AlgorithmOnePrefersCentredOverEquilateral) {
  const double deg = std::numbers::pi / 180.0;
  Eigen::Matrix3Xd points(3, 6);
  for (int i = 0; i < 3; ++i) {  // the equilateral triangle about (2, 0, 0)
    const double a = 120.0 * deg * i;
    points.col(i) << 2.0 + std::cos(a), std::sin(a), 0.0;
  }
  const double near[] = {0.0, 125.0, 235.0};
  for (int i = 0; i < 3; ++i)
    points.col(3 + i) << std::cos(near[i] * deg), std::sin(near[i] * deg), 0.0;
  const GraspTriangle chosen = ChooseGraspTriangle(points, Eigen::Vector3d::Zero());
  ASSERT_TRUE(chosen.found);
  EXPECT_EQ(chosen.indices, (std::array<int, 3>{3, 4, 5}));
  EXPECT_NEAR(chosen.q1, 3.0 / (2.0 * std::numbers::pi) * 10.0 * deg, 1e-12);
  EXPECT_NEAR(chosen.q2, (2.0 * std::cos(125.0 * deg) + 1.0) / -3.0, 1e-12);
  EXPECT_GE(chosen.num_near_equilateral, 2);
  EXPECT_NEAR(CalcQ1(points.col(0), points.col(1), points.col(2)), 0.0, 1e-12);
  EXPECT_NEAR(CalcQ2(points.col(0), points.col(1), points.col(2), Eigen::Vector3d::Zero()), 2.0,
              1e-12);
}

TEST(TriangleMeasuresTest, BadInputThrows) {
  const Eigen::Vector3d nan(std::nan(""), 0, 0);
  EXPECT_THROW(CalcQ1(nan, {1, 0, 0}, {0, 1, 0}), std::invalid_argument);
  EXPECT_THROW(CalcQ2({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, nan), std::invalid_argument);
  EXPECT_THROW(ChooseGraspTriangle(Eigen::Matrix3Xd::Zero(3, 2), Eigen::Vector3d::Zero()),
               std::invalid_argument);
  EXPECT_THROW(ChooseGraspTriangle(Eigen::Matrix3Xd::Zero(3, kMaxTrianglePoints + 1),
                                   Eigen::Vector3d::Zero()),
               std::invalid_argument);
  EXPECT_THROW(ChooseGraspTriangle(Eigen::Matrix3Xd::Zero(3, 4), Eigen::Vector3d::Zero(), 3.0),
               std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
