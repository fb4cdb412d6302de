// Acceptance D3: every pair of primitive shapes (sphere, box, cylinder, capsule, plane, convex
// mesh; plane-plane excluded) against a brute-force reference built from densely sampled
// surface points, for distance and normal, in contact and apart; and the multi-point
// manifolds of faces resting on planes and on boxes.
//
// The reference: for convex A and B and a unit direction n (from A towards B), the gap of the
// support intervals along n is gap(n) = min_{b in B} n.b - max_{a in A} n.a. The signed
// distance is max_n gap(n) both apart (separating axis: the maximum is the distance, attained
// along the closest points' direction) and overlapping (minus the penetration depth: the
// shortest translation that separates the shapes is along the n of least overlap), and the
// maximizing n is the pair's normal. The supports are maxima over the sampled surface points,
// gap is maximized over 4000 directions spread on the sphere, the best then refined by a
// pattern search. Against a plane, the signed distance is the lowest sampled point's height.
//
// Tolerances follow from the sampling: the supports of the round shapes (8000 points on a
// sphere, 720 per rim) are within 3e-4 r of the true ones, so the distance is checked to 1e-3
// m for shapes of 0.3 m to 1 m (1e-3 of their size), and the normal to 3 degrees, or to the
// angle within which the sampled gap stays within twice its error of the maximum where that
// is wider (round pairs, whose gap is flat at its maximum). Each normal is also checked to
// attain its distance (gap(normal) == distance), which a flipped or wrong normal cannot.

#include "physics/contact/collision.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace twinblocks::contact {
namespace {

using multibody::Pose;

constexpr double kDistanceTolerance = 1e-3;  // m
constexpr double kNormalToleranceDeg = 3.0;
// Bound on the sampled supports' error: 0.4 m (1 - cos 0.024) for the sphere, whose 8000
// points leave no direction farther than 0.024 rad from one of them; the gap of a pair sums two.
constexpr double kSamplingError = 2.5e-4;  // m
constexpr double kPi = std::numbers::pi;

// Unit vectors spread evenly on the sphere (Fibonacci lattice).
Eigen::Matrix3Xd FibonacciSphere(int n) {
  Eigen::Matrix3Xd d(3, n);
  const double golden_angle = kPi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n, r = std::sqrt(1.0 - z * z);
    d.col(i) << r * std::cos(golden_angle * i), r * std::sin(golden_angle * i), z;
  }
  return d;
}

void Append(std::vector<Eigen::Vector3d>* points, const Eigen::Vector3d& p) {
  points->push_back(p);
}

// Rings of a cylinder's side and discs of its caps; rims at every half degree.
void SampleCylinder(double radius, double half_length, bool caps,
                    std::vector<Eigen::Vector3d>* points) {
  constexpr int kAngles = 720;
  for (int k = 0; k < kAngles; ++k) {
    const double angle = 2.0 * kPi * k / kAngles;
    const Eigen::Vector2d u(std::cos(angle), std::sin(angle));
    for (int j = 0; j <= 8; ++j) {
      const double z = -half_length + 2.0 * half_length * j / 8;
      Append(points, Eigen::Vector3d(radius * u.x(), radius * u.y(), z));
    }
    if (!caps || k % 2 != 0) continue;
    for (int j = 1; j < 6; ++j) {
      for (const double z : {-half_length, half_length}) {
        Append(points, Eigen::Vector3d(radius * j / 6 * u.x(), radius * j / 6 * u.y(), z));
      }
    }
  }
}

// Points on the surface of a shape (not a plane), in its frame.
Eigen::Matrix3Xd SampleSurface(const Shape& s) {
  std::vector<Eigen::Vector3d> points;
  switch (s.type) {
    case ShapeType::kSphere: {
      const Eigen::Matrix3Xd d = FibonacciSphere(8000);
      for (int i = 0; i < d.cols(); ++i) Append(&points, s.radius * d.col(i));
      break;
    }
    case ShapeType::kBox: {
      constexpr int kGrid = 30;
      const Eigen::Vector3d h = 0.5 * s.size;
      for (int axis = 0; axis < 3; ++axis) {
        const int i = (axis + 1) % 3, j = (axis + 2) % 3;
        for (const double side : {-1.0, 1.0}) {
          for (int a = 0; a <= kGrid; ++a) {
            for (int b = 0; b <= kGrid; ++b) {
              Eigen::Vector3d p;
              p[axis] = side * h[axis];
              p[i] = -h[i] + 2.0 * h[i] * a / kGrid;
              p[j] = -h[j] + 2.0 * h[j] * b / kGrid;
              Append(&points, p);
            }
          }
        }
      }
      break;
    }
    case ShapeType::kCylinder:
      SampleCylinder(s.radius, 0.5 * s.length, true, &points);
      break;
    case ShapeType::kCapsule: {
      SampleCylinder(s.radius, 0.5 * s.length, false, &points);
      const Eigen::Matrix3Xd d = FibonacciSphere(8000);
      for (int i = 0; i < d.cols(); ++i) {
        const double end = d(2, i) < 0.0 ? -0.5 * s.length : 0.5 * s.length;
        Append(&points, s.radius * d.col(i) + Eigen::Vector3d(0.0, 0.0, end));
      }
      break;
    }
    case ShapeType::kConvexMesh: {
      const ConvexHull& hull = *s.hull;
      points = hull.vertices;
      for (const std::vector<int>& face : hull.faces) {
        for (size_t k = 1; k + 1 < face.size(); ++k) {
          const Eigen::Vector3d &a = hull.vertices[face[0]], &b = hull.vertices[face[k]],
                                &c = hull.vertices[face[k + 1]];
          Append(&points, (a + b + c) / 3.0);
          Append(&points, (a + b) / 2.0);
        }
      }
      break;
    }
    case ShapeType::kPlane:
      break;
  }
  Eigen::Matrix3Xd m(3, points.size());
  for (size_t i = 0; i < points.size(); ++i) m.col(i) = points[i];
  return m;
}

Eigen::Matrix3Xd ToWorld(const Eigen::Matrix3Xd& p_S, const Pose& X_WS) {
  return (X_WS.rotation * p_S).colwise() + X_WS.translation;
}

Eigen::Matrix3d RandomRotation(std::mt19937* rng) {
  std::normal_distribution<double> normal;
  Eigen::Quaterniond q(normal(*rng), normal(*rng), normal(*rng), normal(*rng));
  return q.normalized().toRotationMatrix();
}

Eigen::Vector3d RandomUnit(std::mt19937* rng) {
  std::normal_distribution<double> normal;
  return Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng)).normalized();
}

double AngleDeg(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0 / kPi;
}

// The brute-force signed distance of two sampled convex shapes (see the top of this file).
class SampledPair {
 public:
  SampledPair(const Eigen::Matrix3Xd& a, const Eigen::Matrix3Xd& b)
      : ax_(a.row(0).transpose()),
        ay_(a.row(1).transpose()),
        az_(a.row(2).transpose()),
        bx_(b.row(0).transpose()),
        by_(b.row(1).transpose()),
        bz_(b.row(2).transpose()) {}

  double SupportA(const Eigen::Vector3d& n) const {
    return (n.x() * ax_ + n.y() * ay_ + n.z() * az_).maxCoeff();
  }
  double SupportB(const Eigen::Vector3d& n) const {
    return (n.x() * bx_ + n.y() * by_ + n.z() * bz_).maxCoeff();
  }
  double Gap(const Eigen::Vector3d& n) const { return -SupportB(-n) - SupportA(n); }

  struct Answer {
    double distance;
    Eigen::Vector3d normal;
    // The widest angle (deg) from the normal at which some direction comes within twice the
    // sampling error of the maximum: how finely the sampled reference fixes the normal.
    double spread_deg;
  };

  // Apart, the gap has a single maximum on the sphere (its superlevel sets are convex cones);
  // overlapping, the overlap can have several local minima, one per face pair: the search
  // refines the 8 best of 4000 spread directions that are at least 8 degrees apart.
  Answer Solve() const {
    const Eigen::Matrix3Xd dirs = FibonacciSphere(4000);
    std::vector<std::pair<double, int>> gaps(dirs.cols());
    for (int i = 0; i < dirs.cols(); ++i) gaps[i] = {Gap(dirs.col(i)), i};
    std::sort(gaps.begin(), gaps.end(), std::greater<>());
    std::vector<Eigen::Vector3d> starts;
    for (const auto& [gap, i] : gaps) {
      if (starts.size() == 8) break;
      if (std::all_of(starts.begin(), starts.end(),
                      [&](const Eigen::Vector3d& s) { return AngleDeg(s, dirs.col(i)) >= 8.0; })) {
        starts.push_back(dirs.col(i));
      }
    }
    Answer best{-std::numeric_limits<double>::infinity(), Eigen::Vector3d::UnitZ(), 0.0};
    for (Eigen::Vector3d n : starts) {
      const double g = Refine(&n);
      if (g > best.distance) best = {g, n, 0.0};
    }
    const Eigen::Vector3d t1 = best.normal.unitOrthogonal(), t2 = best.normal.cross(t1);
    for (double deg = 0.25; deg <= 30.0; deg += 0.25) {
      const double c = std::cos(deg * kPi / 180.0), s = std::sin(deg * kPi / 180.0);
      for (int k = 0; k < 36; ++k) {
        const double phi = 2.0 * kPi * k / 36;
        const Eigen::Vector3d m = c * best.normal + s * (std::cos(phi) * t1 + std::sin(phi) * t2);
        if (Gap(m) >= best.distance - 2.0 * kSamplingError) best.spread_deg = deg;
      }
    }
    return best;
  }

 private:
  // Pattern search on the sphere: 16 directions around n, the pattern turned by a random
  // angle each round (the gap of polytopes and segments is not smooth, and a fixed pattern
  // stalls on its ridges); move to the best improvement, else shrink the step.
  double Refine(Eigen::Vector3d* n) const {
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> turn(0.0, kPi / 8);
    double best = Gap(*n);
    for (double step = 0.05; step > 1e-8;) {
      const Eigen::Vector3d t1 = n->unitOrthogonal(), t2 = n->cross(t1);
      const double offset = turn(rng);
      Eigen::Vector3d next = *n;
      for (int k = 0; k < 16; ++k) {
        const double angle = offset + kPi / 8 * k;
        const Eigen::Vector3d m =
            (*n + step * (std::cos(angle) * t1 + std::sin(angle) * t2)).normalized();
        const double g = Gap(m);
        if (g > best) {
          best = g;
          next = m;
        }
      }
      if (next == *n) {
        step *= 0.7;
      } else {
        *n = next;
      }
    }
    return best;
  }

  Eigen::VectorXd ax_, ay_, az_, bx_, by_, bz_;
};

// The worst errors seen, printed at the end of a test.
struct Worst {
  double distance = 0.0, normal_deg = 0.0, attained = 0.0, witness = 0.0;
  int cases = 0, apart = 0, overlapping = 0, far = 0, flat = 0;
  void Print(const std::string& name) const {
    std::cout << name << ": " << cases << " cases (" << apart << " apart, " << overlapping
              << " overlapping, " << far
              << " with bounding spheres apart); worst |distance - reference| " << distance
              << " m, normal angle " << normal_deg << " deg (" << flat
              << " cases where the reference fixes the normal to less than 3 deg only), "
              << "|gap(normal) - distance| " << attained << " m, witness " << witness << " m\n";
  }
};

// Collide(b, a) is Collide(a, b) flipped, bit for bit.
void ExpectFlipped(const PairGeometry& g, const PairGeometry& r) {
  EXPECT_EQ(r.distance, g.distance);
  EXPECT_EQ(r.normal, (-g.normal).eval());
  EXPECT_EQ(r.point_a, g.point_b);
  EXPECT_EQ(r.point_b, g.point_a);
  ASSERT_EQ(r.num_points, g.num_points);
  for (int i = 0; i < g.num_points; ++i) {
    EXPECT_EQ(r.points[i].position, g.points[i].position);
    EXPECT_EQ(r.points[i].depth, g.points[i].depth);
  }
}

// The contact points of an overlapping pair: at least one, none deeper than the pair, the
// deepest exactly -distance; none when apart.
void ExpectPointsConsistent(const PairGeometry& g) {
  if (g.distance >= 0.0) {
    EXPECT_EQ(g.num_points, 0);
    return;
  }
  ASSERT_GE(g.num_points, 1);
  ASSERT_LE(g.num_points, kMaxContactPoints);
  double deepest = 0.0;
  for (int i = 0; i < g.num_points; ++i) {
    EXPECT_GT(g.points[i].depth, 0.0);
    EXPECT_LE(g.points[i].depth, -g.distance);
    deepest = std::max(deepest, g.points[i].depth);
  }
  EXPECT_EQ(deepest, -g.distance);
}

struct NamedShape {
  std::string name;
  Shape shape;
};

std::vector<NamedShape> TestShapes() {
  // A convex mesh: the hull of points on an ellipsoid (a generic polytope of many faces).
  std::mt19937 rng(7);
  std::vector<Eigen::Vector3d> cloud;
  for (int i = 0; i < 300; ++i) {
    cloud.push_back(RandomUnit(&rng).cwiseProduct(Eigen::Vector3d(0.5, 0.35, 0.25)));
  }
  return {{"sphere", Shape::Sphere(0.4)},
          {"box", Shape::Box(Eigen::Vector3d(0.8, 0.5, 0.3))},
          {"cylinder", Shape::Cylinder(0.3, 0.8)},
          {"capsule", Shape::Capsule(0.2, 0.6)},
          {"mesh", Shape::ConvexMesh(MakeConvexHull(cloud))}};
}

// Random poses of a and b: a third apart by construction (b beyond a's support along a
// random direction), a third overlapping a little along that direction (contact as a
// simulation sees it), a third with the centres close (deep overlaps); each checked against
// the reference, in both orders.
void CheckPair(const NamedShape& na, const NamedShape& nb, unsigned seed, Worst* worst) {
  const Shape &a = na.shape, &b = nb.shape;
  const Eigen::Matrix3Xd a_S = SampleSurface(a), b_S = SampleSurface(b);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int trial = 0; trial < 15; ++trial) {
    SCOPED_TRACE(na.name + "-" + nb.name + " trial " + std::to_string(trial));
    const Eigen::Matrix3d R_Wa = RandomRotation(&rng);
    Eigen::Vector3d p_Wa;
    for (int k = 0; k < 3; ++k) p_Wa[k] = 0.4 * uniform(rng) - 0.2;
    const Pose X_Wa(R_Wa, p_Wa);
    const Eigen::Matrix3d R_Wb = RandomRotation(&rng);
    const Eigen::Vector3d u = RandomUnit(&rng);
    const double reach = (u.transpose() * (X_Wa.rotation * a_S)).maxCoeff() +
                         (-u.transpose() * (R_Wb * b_S)).maxCoeff();
    const double s = trial % 3 == 0   ? reach + 0.002 + 0.05 * uniform(rng)
                     : trial % 3 == 1 ? reach - 0.001 - 0.02 * uniform(rng)
                                      : reach * (0.3 + 0.65 * uniform(rng));
    const Pose X_Wb(R_Wb, X_Wa.translation + s * u);
    const SampledPair ref(ToWorld(a_S, X_Wa), ToWorld(b_S, X_Wb));
    const SampledPair::Answer r = ref.Solve();
    const PairGeometry g = Collide(a, X_Wa, b, X_Wb);
    ExpectFlipped(g, Collide(b, X_Wb, a, X_Wa));
    ExpectPointsConsistent(g);
    ++worst->cases;
    const bool sphere_primitive =
        (a.type == ShapeType::kSphere) != (b.type == ShapeType::kSphere)
            ? a.type != ShapeType::kConvexMesh && b.type != ShapeType::kConvexMesh
            : a.type == ShapeType::kSphere;
    if (!sphere_primitive &&
        (X_Wb.translation - X_Wa.translation).norm() > BoundingRadius(a) + BoundingRadius(b)) {
      // Bounding spheres apart: not queried, a positive lower bound of the gap.
      EXPECT_GT(g.distance, 0.0);
      EXPECT_LE(g.distance, r.distance + kDistanceTolerance);
      ++worst->far;
      continue;
    }
    ++(r.distance > 0.0 ? worst->apart : worst->overlapping);

    const double d_err = std::abs(g.distance - r.distance);
    EXPECT_LE(d_err, kDistanceTolerance) << "reference " << r.distance << ", got " << g.distance;
    EXPECT_NEAR(g.normal.norm(), 1.0, 1e-12);
    // The normal attains the distance; its opposite does not (a flipped normal fails here).
    const double attained = std::abs(ref.Gap(g.normal) - g.distance);
    EXPECT_LE(attained, kDistanceTolerance);
    EXPECT_GT(std::abs(ref.Gap(-g.normal) - g.distance), kDistanceTolerance);
    // Where the sampled gap is too flat to fix the normal to the tolerance, to its spread.
    const double angle = AngleDeg(g.normal, r.normal);
    EXPECT_LE(angle, std::max(kNormalToleranceDeg, r.spread_deg)) << "spread " << r.spread_deg;
    // Witnesses: a's support point along the normal, b's against it, distance * normal apart.
    const double witness = std::max({std::abs(g.normal.dot(g.point_a) - ref.SupportA(g.normal)),
                                     std::abs(-g.normal.dot(g.point_b) - ref.SupportB(-g.normal)),
                                     (g.point_b - g.point_a - g.distance * g.normal).norm()});
    EXPECT_LE(witness, kDistanceTolerance);
    // Contact points lie in the overlap's slab along the normal.
    for (int i = 0; i < g.num_points; ++i) {
      const double h = g.normal.dot(g.points[i].position);
      EXPECT_LE(h, ref.SupportA(g.normal) + kDistanceTolerance);
      EXPECT_GE(h, -ref.SupportB(-g.normal) - kDistanceTolerance);
    }
    worst->distance = std::max(worst->distance, d_err);
    worst->attained = std::max(worst->attained, attained);
    worst->witness = std::max(worst->witness, witness);
    worst->normal_deg = std::max(worst->normal_deg, angle);
    if (r.spread_deg > kNormalToleranceDeg) ++worst->flat;
  }
}

TEST(CollisionD3, EveryPairMatchesBruteForceReference) {
  const std::vector<NamedShape> shapes = TestShapes();
  Worst worst;
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = i; j < shapes.size(); ++j) {
      Worst pair;
      CheckPair(shapes[i], shapes[j], static_cast<unsigned>(100 + 10 * i + j), &pair);
      pair.Print(shapes[i].name + "-" + shapes[j].name);
      EXPECT_GE(pair.apart, 3);
      EXPECT_GE(pair.overlapping, 3);
      worst.distance = std::max(worst.distance, pair.distance);
      worst.normal_deg = std::max(worst.normal_deg, pair.normal_deg);
      worst.attained = std::max(worst.attained, pair.attained);
      worst.witness = std::max(worst.witness, pair.witness);
      worst.cases += pair.cases;
      worst.apart += pair.apart;
      worst.overlapping += pair.overlapping;
      worst.far += pair.far;
      worst.flat += pair.flat;
    }
  }
  worst.Print("all pairs");
}

// Against a plane the reference is the lowest sampled point's height, and the normal is the
// plane's, pointing into it.
TEST(CollisionD3, EveryShapeAgainstPlaneMatchesLowestSampledPoint) {
  const Shape plane = Shape::Plane();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double worst = 0.0;
  for (const NamedShape& na : TestShapes()) {
    const Eigen::Matrix3Xd a_S = SampleSurface(na.shape);
    for (int trial = 0; trial < 10; ++trial) {
      SCOPED_TRACE(na.name + "-plane trial " + std::to_string(trial));
      const Eigen::Matrix3d R_Wp = RandomRotation(&rng);
      const Pose X_Wp(R_Wp, RandomUnit(&rng));
      const Eigen::Vector3d up = X_Wp.rotation.col(2);
      const Eigen::Matrix3d R_Wa = RandomRotation(&rng);
      const double lowest = (up.transpose() * (R_Wa * a_S)).minCoeff();
      const double target = (trial % 2 == 0 ? 1.0 : -1.0) * (0.005 + 0.1 * uniform(rng));
      const Pose X_Wa(R_Wa, X_Wp.translation + (target - lowest) * up +
                                0.5 * X_Wp.rotation.col(0) * uniform(rng));
      const double reference =
          (up.transpose() * (ToWorld(a_S, X_Wa).colwise() - X_Wp.translation)).minCoeff();
      const PairGeometry g = Collide(na.shape, X_Wa, plane, X_Wp);
      ExpectFlipped(g, Collide(plane, X_Wp, na.shape, X_Wa));
      ExpectPointsConsistent(g);
      EXPECT_NEAR(g.distance, reference, kDistanceTolerance);
      EXPECT_LE(AngleDeg(g.normal, -up), 1e-6);
      EXPECT_NEAR(up.dot(g.point_a - X_Wp.translation), g.distance, 1e-12);
      EXPECT_NEAR(up.dot(g.point_b - X_Wp.translation), 0.0, 1e-12);
      for (int i = 0; i < g.num_points; ++i) {
        // Midway between the point below the plane and the plane.
        EXPECT_NEAR(up.dot(g.points[i].position - X_Wp.translation), -0.5 * g.points[i].depth,
                    1e-12);
      }
      worst = std::max(worst, std::abs(g.distance - reference));
    }
  }
  std::cout << "shape-plane: worst |distance - reference| " << worst << " m\n";
}

// Degenerate configurations on a grid: faces parallel and coplanar, shapes touching exactly,
// coaxial, coincident. Every answer is finite, with a unit normal and consistent points.
TEST(CollisionTest, DegenerateConfigurationsGiveFiniteAnswers) {
  std::vector<Eigen::Vector3d> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back(i & 1 ? 0.02 : -0.02, i & 2 ? 0.015 : -0.015, i & 4 ? 0.01 : -0.01);
  }
  const std::vector<Shape> shapes = {Shape::Sphere(0.01),
                                     Shape::Box(Eigen::Vector3d(0.04, 0.03, 0.02)),
                                     Shape::Cylinder(0.02, 0.06),
                                     Shape::Capsule(0.015, 0.05),
                                     Shape::ConvexMesh(MakeConvexHull(corners)),
                                     Shape::Plane()};
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> quarter(0, 3), step(-2, 2);
  int overlapping = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = 0; j < shapes.size(); ++j) {
      for (int k = 0; k < 300; ++k) {
        const auto turn = [&] {
          return Eigen::Matrix3d(multibody::Rx(kPi / 2 * quarter(rng)) *
                                 multibody::Ry(kPi / 2 * quarter(rng)) *
                                 multibody::Rz(kPi / 2 * quarter(rng)));
        };
        const Eigen::Matrix3d R_Wa = turn(), R_Wb = turn();
        const Eigen::Vector3d p(0.01 * step(rng), 0.01 * step(rng), 0.01 * step(rng));
        const PairGeometry g = Collide(shapes[i], Pose(R_Wa, Eigen::Vector3d::Zero()), shapes[j],
                                       Pose(R_Wb, k % 2 == 0 ? p : Eigen::Vector3d::Zero()));
        ASSERT_FALSE(std::isnan(g.distance)) << i << " " << j << " " << k;
        ASSERT_NEAR(g.normal.norm(), 1.0, 1e-12) << i << " " << j << " " << k;
        if (std::isfinite(g.distance)) {
          ASSERT_TRUE(g.point_a.allFinite() && g.point_b.allFinite());
          ExpectPointsConsistent(g);
          overlapping += g.distance < 0.0;
        }
      }
    }
  }
  EXPECT_GT(overlapping, 1000);
}

TEST(CollisionTest, PlanePlaneIsApartAtInfinity) {
  const PairGeometry g =
      Collide(Shape::Plane(), Pose::Identity(), Shape::Plane(), Pose::Translation({0, 0, -1}));
  EXPECT_EQ(g.distance, std::numeric_limits<double>::infinity());
  EXPECT_EQ(g.num_points, 0);
}

// Bounding spheres apart: no exact query, a lower bound of the gap along the line of centres.
TEST(CollisionTest, FarPairReportsBoundingSphereGap) {
  const Shape box = Shape::Box(Eigen::Vector3d(1.0, 1.0, 1.0));
  const Shape cylinder = Shape::Cylinder(0.5, 1.0);
  const PairGeometry g =
      Collide(box, Pose::Identity(), cylinder, Pose::Translation(Eigen::Vector3d(3.0, 0, 0)));
  EXPECT_NEAR(g.distance, 3.0 - std::sqrt(0.75) - std::sqrt(0.5), 1e-12);
  EXPECT_LT(g.distance, 2.0);  // the exact gap
  EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d::UnitX()));
  EXPECT_EQ(g.num_points, 0);
}

TEST(CollisionTest, SphereAgainstBoxFaceEdgeAndInside) {
  const Shape sphere = Shape::Sphere(0.1), box = Shape::Box(Eigen::Vector3d(2.0, 1.0, 1.0));
  // Above the top face.
  PairGeometry g = Collide(sphere, Pose::Translation({0.3, 0.1, 0.55}), box, Pose::Identity());
  EXPECT_NEAR(g.distance, -0.05, 1e-15);
  EXPECT_TRUE(g.normal.isApprox(-Eigen::Vector3d::UnitZ()));
  ASSERT_EQ(g.num_points, 1);
  EXPECT_TRUE(g.points[0].position.isApprox(Eigen::Vector3d(0.3, 0.1, 0.475)));
  // Off an edge: distance to the edge.
  g = Collide(Shape::Sphere(0.2), Pose::Translation({1.15, 0.0, 0.7}), box, Pose::Identity());
  EXPECT_NEAR(g.distance, 0.25 - 0.2, 1e-15);
  EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d(-0.6, 0.0, -0.8)));
  // Centre inside, nearest the +y face.
  g = Collide(sphere, Pose::Translation({0.2, 0.4, 0.0}), box, Pose::Identity());
  EXPECT_NEAR(g.distance, -0.2, 1e-15);
  EXPECT_TRUE(g.normal.isApprox(-Eigen::Vector3d::UnitY()));
}

TEST(CollisionManifold, BoxRestingFlatOnPlaneGivesFourEqualPoints) {
  const Shape box = Shape::Box(Eigen::Vector3d(0.4, 0.2, 0.1));
  const Pose X_Wbox(multibody::Rz(0.3), Eigen::Vector3d(1.0, 2.0, 0.05 - 0.002));
  const PairGeometry g = Collide(box, X_Wbox, Shape::Plane(), Pose::Identity());
  EXPECT_NEAR(g.distance, -0.002, 1e-15);
  ASSERT_EQ(g.num_points, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(g.points[i].depth, 0.002, 1e-15);
    EXPECT_NEAR(g.points[i].position.z(), -0.001, 1e-15);
    // The corners: 0.2 and 0.1 from the centre along the box's axes.
    const Eigen::Vector3d r =
        X_Wbox.rotation.transpose() * (g.points[i].position - X_Wbox.translation);
    EXPECT_NEAR(std::abs(r.x()), 0.2, 1e-12);
    EXPECT_NEAR(std::abs(r.y()), 0.1, 1e-12);
  }
}

TEST(CollisionManifold, BoxOnBoxFaceToFaceGivesFourPoints) {
  const Shape base = Shape::Box(Eigen::Vector3d(1.0, 1.0, 0.2));
  const Shape top = Shape::Box(Eigen::Vector3d(0.4, 0.3, 0.2));
  const Pose X_Wtop(multibody::Rz(0.5), Eigen::Vector3d(0.1, -0.1, 0.2 - 0.003));
  const PairGeometry g = Collide(base, Pose::Identity(), top, X_Wtop);
  EXPECT_NEAR(g.distance, -0.003, 1e-9);
  EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9));
  ASSERT_EQ(g.num_points, 4);
  for (int i = 0; i < g.num_points; ++i) {
    EXPECT_NEAR(g.points[i].depth, 0.003, 1e-9);
    EXPECT_NEAR(g.points[i].position.z(), 0.1 - 0.0015, 1e-9);
  }
  // The small box's corners, whichever shape is a.
  const PairGeometry r = Collide(top, X_Wtop, base, Pose::Identity());
  EXPECT_EQ(r.num_points, 4);
  EXPECT_TRUE(r.normal.isApprox(-Eigen::Vector3d::UnitZ(), 1e-9));
}

TEST(CollisionManifold, BoxOverhangingBoxIsClippedToTheOverlap) {
  // A long box across a narrow one: the contact patch is the crossing, 4 points on its corners.
  const Shape narrow = Shape::Box(Eigen::Vector3d(0.2, 2.0, 0.2));
  const Shape wide = Shape::Box(Eigen::Vector3d(2.0, 0.3, 0.2));
  const PairGeometry g =
      Collide(narrow, Pose::Identity(), wide, Pose::Translation({0.0, 0.0, 0.199}));
  ASSERT_EQ(g.num_points, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(std::abs(g.points[i].position.x()), 0.1, 1e-9);
    EXPECT_NEAR(std::abs(g.points[i].position.y()), 0.15, 1e-9);
    EXPECT_NEAR(g.points[i].depth, 0.001, 1e-9);
  }
}

TEST(CollisionManifold, TiltedBoxOnBoxTouchesAlongItsLowerEdge) {
  // Tilted 1 degree about x (within the flat-contact angle): the lower edge's corners dig in
  // deepest; the face's other corners are above the base and are not points.
  const Shape base = Shape::Box(Eigen::Vector3d(1.0, 1.0, 0.2));
  const Shape top = Shape::Box(Eigen::Vector3d(0.2, 0.2, 0.2));
  const double tilt = 1.0 * kPi / 180.0;
  const Pose X_Wtop(
      multibody::Rx(tilt),
      Eigen::Vector3d(0.0, 0.0, 0.1 + 0.1 * std::cos(tilt) + 0.1 * std::sin(tilt) - 0.001));
  const PairGeometry g = Collide(base, Pose::Identity(), top, X_Wtop);
  EXPECT_NEAR(g.distance, -0.001, 1e-9);
  ASSERT_EQ(g.num_points, 2);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(g.points[i].depth, 0.001, 1e-9);
}

TEST(CollisionManifold, CylinderStandingOnPlaneGivesRimPoints) {
  const Shape cylinder = Shape::Cylinder(0.1, 0.4);
  const PairGeometry g = Collide(cylinder, Pose::Translation({0.5, 0.0, 0.2 - 0.001}),
                                 Shape::Plane(), Pose::Identity());
  EXPECT_NEAR(g.distance, -0.001, 1e-15);
  ASSERT_GE(g.num_points, 3);
  for (int i = 0; i < g.num_points; ++i) {
    EXPECT_NEAR(g.points[i].depth, 0.001, 1e-15);
    EXPECT_NEAR((g.points[i].position - Eigen::Vector3d(0.5, 0.0, 0.0)).head<2>().norm(), 0.1,
                1e-12);
  }
}

TEST(CollisionManifold, CylinderLyingOnPlaneGivesBothEnds) {
  const Shape cylinder = Shape::Cylinder(0.1, 0.4);
  const Pose X_Wc(multibody::Ry(kPi / 2), Eigen::Vector3d(0.0, 0.3, 0.1 - 0.001));
  const PairGeometry g = Collide(cylinder, X_Wc, Shape::Plane(), Pose::Identity());
  EXPECT_NEAR(g.distance, -0.001, 1e-12);
  ASSERT_EQ(g.num_points, 2);
  EXPECT_NEAR(std::abs(g.points[0].position.x() - g.points[1].position.x()), 0.4, 1e-12);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(g.points[i].depth, 0.001, 1e-12);
}

TEST(CollisionManifold, CapsuleLyingOnPlaneAndOnCapsuleGivesTwoPoints) {
  const Shape capsule = Shape::Capsule(0.05, 0.3);
  const Pose X_Wc(multibody::Ry(kPi / 2), Eigen::Vector3d(0.0, 0.0, 0.05 - 0.001));
  PairGeometry g = Collide(capsule, X_Wc, Shape::Plane(), Pose::Identity());
  ASSERT_EQ(g.num_points, 2);
  EXPECT_NEAR(std::abs(g.points[0].position.x() - g.points[1].position.x()), 0.3, 1e-12);
  // A second capsule on top, parallel and shifted along the axis: the overlap's two ends.
  const Pose X_Wd(multibody::Ry(kPi / 2), Eigen::Vector3d(0.1, 0.0, 0.1 + 0.05 - 0.002));
  g = Collide(capsule, X_Wc, capsule, X_Wd);
  EXPECT_NEAR(g.distance, -0.002 + 0.001, 1e-12);
  EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d::UnitZ()));
  ASSERT_EQ(g.num_points, 2);
  EXPECT_NEAR(std::abs(g.points[0].position.x() - g.points[1].position.x()), 0.2, 1e-12);
}

TEST(CollisionManifold, CylinderStandingOnBoxGivesRimPoints) {
  const Shape box = Shape::Box(Eigen::Vector3d(1.0, 1.0, 0.2));
  const Shape cylinder = Shape::Cylinder(0.1, 0.3);
  const PairGeometry g =
      Collide(box, Pose::Identity(), cylinder, Pose::Translation({0.2, 0.1, 0.25 - 0.002}));
  EXPECT_NEAR(g.distance, -0.002, 1e-9);
  EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9));
  ASSERT_GE(g.num_points, 3);
  for (int i = 0; i < g.num_points; ++i) EXPECT_NEAR(g.points[i].depth, 0.002, 1e-9);
}

TEST(CollisionManifold, CylinderAndCapsuleLyingOnBoxGiveBothEnds) {
  const Shape box = Shape::Box(Eigen::Vector3d(1.0, 1.0, 0.2));
  const Pose lying(multibody::Rx(kPi / 2), Eigen::Vector3d(0.1, 0.0, 0.1 + 0.05 - 0.001));
  for (const Shape& s : {Shape::Cylinder(0.05, 0.3), Shape::Capsule(0.05, 0.3)}) {
    const PairGeometry g = Collide(box, Pose::Identity(), s, lying);
    EXPECT_NEAR(g.distance, -0.001, 1e-7);
    EXPECT_TRUE(g.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-6));
    ASSERT_EQ(g.num_points, 2);
    EXPECT_NEAR(std::abs(g.points[0].position.y() - g.points[1].position.y()), 0.3, 1e-6);
  }
}

// A Reflex finger's capsule (radius 0.01, nearly upright) pressing 2 mm into the curved side
// of a cylinder lying along y (radius 0.035): the pose where libccd's EPA ended on the far
// side and reported the width of both, 9 cm, with the normal reversed. The depth is the
// closed form (the segment's distance from the cylinder's axis, less both radii), in both
// argument orders, and it changes smoothly as the capsule moves across.
TEST(CollisionTest, CapsuleAcrossACylindersSideHasTheClosedFormDepth) {
  const Shape capsule = Shape::Capsule(0.01, 0.066189122973500006);
  const Shape cylinder = Shape::Cylinder(0.035, 0.12);
  const Pose X_Wc(multibody::Rx(-kPi / 2), Eigen::Vector3d(0.01, 0.0, 0.03496506757961753));
  const double tilt = 0.093316636892815039;  // the capsule's axis leans this sine from -z
  Eigen::Matrix3d R;
  const double c = std::sqrt(1.0 - tilt * tilt);
  R << -c, 0.0, -tilt, 0.0, 1.0, 0.0, tilt, 0.0, -c;
  double last = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= 20; ++k) {
    SCOPED_TRACE(k);
    const double x = -0.033088273177385601 + 1e-4 * k;  // sliding toward the cylinder
    const Pose X_Wk(R, Eigen::Vector3d(x, 0.0, 0.057449847211555424));
    // Closest point of the capsule's segment to the cylinder's axis, in the x-z plane.
    const Eigen::Vector2d centre(0.01, 0.03496506757961753);
    const Eigen::Vector2d p(x, 0.057449847211555424), axis(R(0, 2), R(2, 2));
    const double t =
        std::clamp((centre - p).dot(axis), -0.033094561486750003, 0.033094561486750003);
    const double expected = (p + t * axis - centre).norm() - 0.035 - 0.01;
    for (bool swap : {false, true}) {
      const PairGeometry g =
          swap ? Collide(cylinder, X_Wc, capsule, X_Wk) : Collide(capsule, X_Wk, cylinder, X_Wc);
      EXPECT_NEAR(g.distance, expected, 1e-9);
      EXPECT_GT((swap ? -1.0 : 1.0) * g.normal.x(), 0.99);  // from the capsule toward the axis
    }
    EXPECT_LT(expected, last);  // deeper each step
    last = expected;
  }
}

TEST(CollisionManifold, MeshCubeOnPlaneAndOnBoxGivesItsCorners) {
  std::vector<Eigen::Vector3d> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1);
  }
  const Shape cube = Shape::ConvexMesh(MakeConvexHull(corners));
  const Pose X_Wc(multibody::Rz(0.2), Eigen::Vector3d(0.0, 0.0, 0.1 - 0.001));
  PairGeometry g = Collide(cube, X_Wc, Shape::Plane(), Pose::Identity());
  EXPECT_EQ(g.num_points, 4);
  g = Collide(Shape::Box(Eigen::Vector3d(1.0, 1.0, 1.0)), Pose::Translation({0, 0, -0.5}), cube,
              X_Wc);
  EXPECT_NEAR(g.distance, -0.001, 1e-9);
  EXPECT_EQ(g.num_points, 4);
}

}  // namespace
}  // namespace twinblocks::contact
