#include "physics/grasp/epsilon_solver.h"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "physics/grasp/friction_cone.h"
#include "physics/grasp/grasp_quality.h"
#include "tests/physics/grasp/grasp_test_helpers.h"
#include "tests/physics/malloc_count.h"

namespace twinblocks::grasp {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6Xd = Eigen::Matrix<double, 6, Eigen::Dynamic>;
using testing::kSphereRadius;

// The largest w_j . u.
double Support(const Eigen::MatrixXd& W, const Vector6d& u) {
  return (u.transpose() * W).maxCoeff();
}

// nc contacts at random points of the ellipsoid with semi-axes `axes` centred at the origin,
// normals pointing in: unlike a sphere's, the normals miss the centre, so that frictionless
// contacts can hold the object.
void RandomEllipsoidGrasp(int nc, const Eigen::Vector3d& axes, std::mt19937* rng,
                          Eigen::Matrix3Xd* p_W, Eigen::Matrix3Xd* n_W) {
  std::normal_distribution<double> normal;
  p_W->resize(3, nc);
  n_W->resize(3, nc);
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d s =
        Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng)).normalized();
    p_W->col(i) = axes.cwiseProduct(s);
    n_W->col(i) = -s.cwiseQuotient(axes).normalized();  // the gradient of |x / axes|^2
  }
}

// E1. The solver against qhull (CalcGraspQuality with keep_facets, which always builds the
// hull) on random grasps of every contact model: force closure exactly, epsilon to 1e-9
// relative, and the weakest direction a facet of the hull at distance epsilon.
TEST(EpsilonSolverTest, AgreesWithQhullOnRandomGrasps) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  EpsilonSolver solver(kMaxContacts * 2 * 8);
  const ContactModel models[] = {ContactModel::kHardFinger, ContactModel::kSoftFinger,
                                 ContactModel::kPointWithoutFriction};
  int closed = 0, open = 0, flat = 0;
  double worst = 0.0, peak = 0.0;
  QualityOptions qhull;
  qhull.keep_facets = true;
  for (int trial = 0; trial < 360; ++trial) {
    const int nc = 2 + trial % 12;
    const ContactModel model = models[(trial / 12) % 3];
    Eigen::Matrix3Xd p, n;
    if (trial % 2 == 0) {
      testing::RandomSphereGrasp(nc, kSphereRadius, &rng, &p, &n);
    } else {
      RandomEllipsoidGrasp(nc, Eigen::Vector3d(0.05, 0.035, 0.02), &rng, &p, &n);
    }
    FrictionCone cone;
    cone.edges = (trial / 36) % 2 == 0 ? 8 : 4;
    cone.mu = trial % 10 == 3 ? 0.0 : uniform(rng);
    cone.torsional_mu = model == ContactModel::kSoftFinger ? 0.01 * uniform(rng) : 0.0;
    const GraspQuality q = CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), model, cone, qhull);
    const EpsilonResult r = solver.Solve(q.points);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(nc) + " contacts, mu " +
                 std::to_string(cone.mu) + ", status " + EpsilonStatusName(r.status));
    ASSERT_TRUE(r.status == EpsilonStatus::kSolved || r.status == EpsilonStatus::kFlat);
    peak = std::max(peak, static_cast<double>(r.peak_facets) /
                              EpsilonSolver::DefaultMaxFacets(static_cast<int>(q.points.cols())));
    // The solver behind CalcGraspQuality's L1 epsilon when the facets are not kept.
    const GraspQuality fast = CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), model, cone);
    EXPECT_EQ(fast.force_closure, q.force_closure);
    EXPECT_NEAR(fast.epsilon, q.epsilon, 1e-9 * q.epsilon);
    EXPECT_EQ(fast.message, q.message);
    EXPECT_EQ(r.force_closure, q.force_closure) << q.message;
    if (q.force_closure && r.force_closure) {
      const double error = std::abs(r.epsilon - q.epsilon) / q.epsilon;
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-9) << r.epsilon << " vs qhull " << q.epsilon;
      EXPECT_NEAR(r.weakest_direction.norm(), 1.0, 1e-12);
      EXPECT_LT(std::abs(Support(q.points, r.weakest_direction) - q.epsilon), 1e-9 * q.epsilon);
      ++closed;
    } else {
      EXPECT_EQ(r.epsilon, 0.0);
      EXPECT_TRUE(r.weakest_direction.isZero());
      ++(r.status == EpsilonStatus::kFlat ? flat : open);
    }
  }
  std::printf(
      "[ info ] %d force closure (epsilon within %.2g relative of qhull's), %d not, "
      "%d flat; peak facets %.2g of the default pool\n",
      closed, worst, open, flat, peak);
  EXPECT_GE(closed, 100);
  EXPECT_GE(open, 20);
  EXPECT_GE(flat, 20);
}

// A grasp that cannot close (two antipodal hard fingers: no torque about the line through
// them) and one whose origin is on the hull's boundary (frictionless contacts, so every
// wrench pushes: fewer than 7 points here), and all contacts at one point.
TEST(EpsilonSolverTest, FlatWrenchesAreNotForceClosure) {
  EpsilonSolver solver(64);
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(2, kSphereRadius, &p, &n);
  const Eigen::MatrixXd W = CalcPrimitiveWrenches(
      p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.5, 0.0, 8}, kSphereRadius);
  const EpsilonResult antipodal = solver.Solve(W);
  EXPECT_EQ(antipodal.status, EpsilonStatus::kFlat);
  EXPECT_FALSE(antipodal.force_closure);
  EXPECT_EQ(solver.Solve(W.leftCols(5)).status, EpsilonStatus::kFlat);
  EXPECT_EQ(solver.Solve(Matrix6Xd::Zero(6, 20)).status, EpsilonStatus::kFlat);
}

// Closed forms of wrench sets with known hulls. The cross-polytope hull(+-e_i) has 64 facets
// x . s = 1 (s in {-1, 1}^6), at distance 1 / sqrt(6). The cube hull({-1, 1}^6) has 12 facets
// x_i = +-1 at distance 1, each through 32 of the points: the worst case of coplanar points.
// The regular simplex with circumradius R has inradius R / 6. Rotating and scaling the points
// by s scales epsilon by s; translating the cube by t along e_1 moves the nearest facet to
// 1 - t, and by more than 1 takes the origin out.
TEST(EpsilonSolverTest, MatchesClosedFormsOfSymmetricHulls) {
  EpsilonSolver solver(64);
  Matrix6Xd cross(6, 12);
  cross << Eigen::Matrix<double, 6, 6>::Identity(), -Eigen::Matrix<double, 6, 6>::Identity();
  Matrix6Xd cube(6, 64);
  for (int j = 0; j < 64; ++j) {
    for (int i = 0; i < 6; ++i) cube(i, j) = (j >> i) & 1 ? 1.0 : -1.0;
  }
  // The regular simplex: the 7 unit vectors of R^7 minus their centroid, in a basis of the
  // hyperplane they span, scaled to circumradius 1.
  Eigen::Matrix<double, 7, 7> corners =
      Eigen::Matrix<double, 7, 7>::Identity() - Eigen::Matrix<double, 7, 7>::Constant(1.0 / 7);
  const Eigen::HouseholderQR<Eigen::Matrix<double, 7, 7>> qr(corners);
  const Eigen::Matrix<double, 7, 7> Q = qr.householderQ();
  Matrix6Xd simplex = Q.leftCols(6).transpose() * corners;
  simplex /= simplex.col(0).norm();
  std::mt19937 rng(5);
  for (int rotation = 0; rotation < 4; ++rotation) {
    // A random rotation and scale (identity the first time).
    Eigen::Matrix<double, 6, 6> R = Eigen::Matrix<double, 6, 6>::Identity();
    double s = 1.0;
    if (rotation > 0) {
      std::normal_distribution<double> normal;
      Eigen::Matrix<double, 6, 6> A;
      for (int k = 0; k < 36; ++k) A.data()[k] = normal(rng);
      R = Eigen::HouseholderQR<Eigen::Matrix<double, 6, 6>>(A).householderQ();
      s = std::pow(10.0, rotation - 2);
    }
    const EpsilonResult c = solver.Solve(s * R * cross);
    ASSERT_EQ(c.status, EpsilonStatus::kSolved);
    EXPECT_NEAR(c.epsilon, s / std::sqrt(6.0), 1e-13 * s);
    const EpsilonResult k = solver.Solve(s * R * cube);
    ASSERT_EQ(k.status, EpsilonStatus::kSolved);
    EXPECT_NEAR(k.epsilon, s, 1e-13 * s);
    EXPECT_NEAR((R.transpose() * k.weakest_direction).cwiseAbs().maxCoeff(), 1.0, 1e-12);
    const EpsilonResult t = solver.Solve(s * R * simplex);
    ASSERT_EQ(t.status, EpsilonStatus::kSolved);
    EXPECT_NEAR(t.epsilon, s / 6.0, 1e-13 * s);
  }
  for (const double shift : {0.25, 0.9, 0.999, 1.5}) {
    const Matrix6Xd moved = cube.colwise() + shift * Vector6d::Unit(0);
    const EpsilonResult m = solver.Solve(moved);
    EXPECT_EQ(m.force_closure, shift < 1.0);
    if (shift < 1.0) {
      EXPECT_NEAR(m.epsilon, 1.0 - shift, 1e-13);
      EXPECT_NEAR(m.weakest_direction[0], -1.0, 1e-12);
    }
  }
}

// A grasp with a closed form: 12 frictionless contacts on the cube [-a, a]^3, two on each
// face at +-b from its centre along an edge direction, chosen so that each wrench is a unit
// force along an axis and a torque along another:
//   -e1 +- c e6, e1 +- c e5, -e2 +- c e4, e2 +- c e6, -e3 +- c e5, e3 +- c e4,
// c = b / L, L = sqrt(a^2 + b^2) the distance to every contact. With u = (a; b) and
// beta_i = |b_i|, h(u) = max(-a1 + c beta6, a1 + c beta5, -a2 + c beta4, a2 + c beta6,
// -a3 + c beta5, a3 + c beta4). epsilon = min over unit u of h(u) = 1 / max{|u| : h(u) <= 1}.
// For fixed beta, |a_1| is largest at 1 - c min(beta5, beta6) (so for a_2, a_3), and
// |u|^2 = sum (1 - c m_i)^2 + |beta|^2 is convex in beta over the polytope beta >= 0,
// c (beta_i + beta_j) <= 2: its largest value is at a vertex, 0, (2 / c) e_i or
// (1 / c)(1, 1, 1), giving 3, 3 + 4 / c^2 and 3 / c^2. So epsilon = c / sqrt(3 c^2 + 4).
TEST(EpsilonSolverTest, MatchesClosedFormOfFrictionlessCubeGrasp) {
  const double a = 0.05;
  EpsilonSolver solver(12);
  for (const double b : {0.005, 0.02, 0.04}) {
    Eigen::Matrix3Xd p(3, 12), n(3, 12);
    p << a, a, -a, -a, 0, 0, b, -b, b, -b, 0, 0,  //
        b, -b, 0, 0, a, a, -a, -a, 0, 0, b, -b,   //
        0, 0, b, -b, b, -b, 0, 0, a, a, -a, -a;
    n << -1, -1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,  //
        0, 0, 0, 0, -1, -1, 1, 1, 0, 0, 0, 0,   //
        0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 1, 1;
    const double c = b / std::hypot(a, b);
    const double expected = c / std::sqrt(3.0 * c * c + 4.0);
    const GraspQuality q =
        CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kPointWithoutFriction, {});
    const EpsilonResult r = solver.Solve(q.points);
    ASSERT_EQ(r.status, EpsilonStatus::kSolved);
    EXPECT_TRUE(r.force_closure);
    EXPECT_NEAR(r.epsilon, expected, 1e-14) << "b " << b;
    EXPECT_NEAR(q.epsilon, expected, 1e-14) << "b " << b << " (qhull)";
  }
}

// Three hard fingers 120 degrees apart on the equator (H1 of grasp_quality_test.cc): no closed
// form was derived (the weakest direction mixes all six components and changes with mu); the
// solver agrees with qhull for every mu and cone and gives the same epsilon when the fingers
// turn about z (t1 = z for every phase but multiples of 45 degrees: the same wrenches, turned).
TEST(EpsilonSolverTest, EquatorGraspAgreesWithQhull) {
  EpsilonSolver solver(64);
  for (const int k : {4, 8, 16}) {
    for (const double mu : {0.05, 0.3, 1.0, 2.0}) {
      Eigen::Matrix3Xd p, n;
      testing::EquatorGrasp(3, kSphereRadius, &p, &n);
      const GraspQuality q =
          CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {mu, 0.0, k});
      const EpsilonResult r = solver.Solve(q.points);
      EXPECT_TRUE(r.force_closure);
      EXPECT_NEAR(r.epsilon, q.epsilon, 1e-12 * q.epsilon) << "k " << k << " mu " << mu;
      testing::EquatorGrasp(3, kSphereRadius, &p, &n, 0.3);
      const Eigen::MatrixXd W = CalcPrimitiveWrenches(
          p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {mu, 0.0, k}, kSphereRadius);
      EXPECT_NEAR(solver.Solve(W).epsilon, q.epsilon, 1e-12 * q.epsilon);
    }
  }
}

// FillPrimitiveWrenches writes CalcPrimitiveWrenches' columns into a buffer, and neither it
// nor Solve touches the heap once the solver and the buffer exist.
TEST(EpsilonSolverTest, SolveDoesNotAllocate) {
  if (!twinblocks::testing::kMallocCounted) {
    GTEST_SKIP() << "malloc is not interposed in this build";
  }
  constexpr int kContacts = 13;
  const FrictionCone cone{0.6, 0.004, 8};
  EpsilonSolver solver(kContacts * 16);
  Matrix6Xd W(6, kContacts * 16);
  std::mt19937 rng(9);
  for (const ContactModel model : {ContactModel::kHardFinger, ContactModel::kSoftFinger}) {
    for (int trial = 0; trial < 10; ++trial) {
      Eigen::Matrix3Xd p, n;
      testing::RandomSphereGrasp(kContacts, kSphereRadius, &rng, &p, &n);
      const Eigen::Vector3d p_WO = Eigen::Vector3d::Zero();
      twinblocks::testing::StartCountingAllocations();
      const int count = FillPrimitiveWrenches(p, n, p_WO, model, cone, kSphereRadius, W);
      const EpsilonResult r = solver.Solve(W.leftCols(count));
      EXPECT_EQ(twinblocks::testing::StopCountingAllocations(), 0);
      ASSERT_EQ(r.status, EpsilonStatus::kSolved);
      EXPECT_EQ(W.leftCols(count), CalcPrimitiveWrenches(p, n, p_WO, model, cone, kSphereRadius));
    }
  }
}

// A pool too small for the polytope is reported, not a crash, and the solver still works on
// a grasp that fits; so are too many points.
TEST(EpsilonSolverTest, ReportsExhaustedPool) {
  std::mt19937 rng(4);
  Eigen::Matrix3Xd p, n;
  testing::RandomSphereGrasp(13, kSphereRadius, &rng, &p, &n);
  const Eigen::MatrixXd W = CalcPrimitiveWrenches(
      p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.7, 0.0, 8}, kSphereRadius);
  EpsilonSolver small(static_cast<int>(W.cols()), 100);
  const EpsilonResult r = small.Solve(W);
  EXPECT_EQ(r.status, EpsilonStatus::kFacetPoolExhausted);
  EXPECT_FALSE(r.force_closure);
  EXPECT_STREQ(EpsilonStatusName(r.status), "facet pool exhausted");
  Matrix6Xd cross(6, 12);
  cross << Eigen::Matrix<double, 6, 6>::Identity(), -Eigen::Matrix<double, 6, 6>::Identity();
  const EpsilonResult fits = small.Solve(cross);
  EXPECT_EQ(fits.status, EpsilonStatus::kSolved);
  EXPECT_NEAR(fits.epsilon, 1.0 / std::sqrt(6.0), 1e-14);
  EpsilonSolver tiny(10);
  EXPECT_EQ(tiny.Solve(W).status, EpsilonStatus::kTooManyPoints);
  EXPECT_THROW(EpsilonSolver(3), std::invalid_argument);
  EXPECT_THROW(EpsilonSolver(kMaxHullPoints + 1), std::invalid_argument);
  EXPECT_THROW(EpsilonSolver(100, 6), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
