#include "physics/grasp/grasp_quality.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "physics/grasp/detail/linear_program.h"
#include "physics/grasp/grasp_matrix.h"
#include "tests/physics/grasp/grasp_test_helpers.h"

namespace twinblocks::grasp {
namespace {

using testing::kSphereRadius;

// H1. Three hard fingers 120 degrees apart on the equator hold a sphere with any friction:
// tangential forces along z give torques about x and y, those along t2 torques about z.
// Without friction the three normals meet at the centre: no torque at all, the hull is flat.
TEST(GraspQualityTest, EquatorGraspClosesWithFrictionOnly) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  for (const double mu : {0.1, 0.5, 1.0}) {
    const GraspQuality q =
        CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {mu, 0.0, 8});
    EXPECT_TRUE(q.force_closure) << "mu " << mu << ": " << q.message;
    EXPECT_GT(q.epsilon, 0.0);
    EXPECT_DOUBLE_EQ(q.torque_length, kSphereRadius);
  }
  const GraspQuality none =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.0, 0.0, 8});
  EXPECT_FALSE(none.force_closure);
  EXPECT_EQ(none.epsilon, 0.0);
  EXPECT_FALSE(none.message.empty());
  // More friction, a larger hull, a larger epsilon.
  const double e1 =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.3, 0, 8})
          .epsilon;
  const double e2 =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.6, 0, 8})
          .epsilon;
  EXPECT_GT(e2, e1);
}

// H1. Two antipodal hard fingers cannot resist a torque about the line through them (their
// forces all pass through it): not force closure, for any friction. Soft fingers can, by
// torsional friction |m_n| <= torsional_mu f_n. torsional_mu = 2 mu a / 3 = 1 mm for a
// circular patch of radius a = 3 mm under uniform pressure with mu = 0.5 (the moment of
// uniform shear stress mu p over a disc: integral of mu p rho dA = (2/3) a mu f_n).
TEST(GraspQualityTest, AntipodalNeedsSoftFingers) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(2, kSphereRadius, &p, &n);
  const FrictionCone cone{0.5, 2.0 * 0.5 * 0.003 / 3.0, 8};
  const GraspQuality hard =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, cone);
  EXPECT_FALSE(hard.force_closure);
  EXPECT_FALSE(IsForceClosure(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, cone));
  const GraspQuality soft =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kSoftFinger, cone);
  EXPECT_TRUE(soft.force_closure) << soft.message;
  // Without torsional friction a soft finger is a hard one.
  EXPECT_FALSE(
      IsForceClosure(p, n, Eigen::Vector3d::Zero(), ContactModel::kSoftFinger, {0.5, 0.0, 8}));
}

// The primitive wrenches, computed here from the definitions (not from the library's
// friction_cone.cc): edge j of contact i is n + mu (cos(2 pi j / k) t1 + sin(2 pi j / k) t2),
// t1 the projection of the world axis least aligned with n, t2 = n x t1; its wrench is
// [e; (p - c) x e / L].
Eigen::MatrixXd IndependentPrimitiveWrenches(const Eigen::Matrix3Xd& p, const Eigen::Matrix3Xd& n,
                                             double mu, int k, double L) {
  Eigen::MatrixXd W(6, p.cols() * k);
  for (Eigen::Index i = 0; i < p.cols(); ++i) {
    int axis = 0;
    n.col(i).cwiseAbs().minCoeff(&axis);
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(axis);
    const Eigen::Vector3d t1 = (e - e.dot(n.col(i)) * n.col(i)).normalized();
    const Eigen::Vector3d t2 = n.col(i).cross(t1);
    for (int j = 0; j < k; ++j) {
      const double theta = 2.0 * std::numbers::pi * j / k;
      const Eigen::Vector3d edge = n.col(i) + mu * (std::cos(theta) * t1 + std::sin(theta) * t2);
      W.col(i * k + j) << edge, p.col(i).cross(edge) / L;
    }
  }
  return W;
}

// How far the ray t u (t >= 0) runs inside the hull of the columns of W: the LP
// max t subject to W lambda = t u, sum(lambda) = 1, lambda >= 0 (GLPK, nothing of qhull).
double RayExit(const Eigen::MatrixXd& W, const Eigen::Matrix<double, 6, 1>& u) {
  const Eigen::Index N = W.cols();
  const double inf = std::numeric_limits<double>::infinity();
  detail::LinearProgram lp;
  lp.maximize = true;
  lp.c = Eigen::VectorXd::Zero(N + 1);
  lp.c[N] = 1.0;
  lp.A = Eigen::MatrixXd::Zero(7, N + 1);
  lp.A.topLeftCorner(6, N) = W;
  lp.A.block<6, 1>(0, N) = -u;
  lp.A.row(6).head(N).setOnes();
  lp.row_lower = Eigen::VectorXd::Zero(7);
  lp.row_lower[6] = 1.0;
  lp.row_upper = lp.row_lower;
  lp.col_lower = Eigen::VectorXd::Zero(N + 1);
  lp.col_upper = Eigen::VectorXd::Constant(N + 1, inf);
  const detail::LinearProgramSolution solution = detail::SolveLinearProgram(lp);
  EXPECT_EQ(solution.status, detail::LinearProgramStatus::kOptimal) << solution.message;
  return solution.objective;
}

// H2. Epsilon against independent checks on 24 random force-closure grasps (3 to 5 hard
// fingers on a sphere, reference point off the centre, mu in [0.4, 1], 6 edges):
//   (1) every facet qhull reported supports the primitive wrenches W computed here from the
//       definitions: max_w u . w = h(u) is recomputed from W (not taken from qhull) and equals
//       the facet's distance to 1e-10 |W|, and the facet's vertices lie on it;
//   (2) the facets are the whole boundary: along 150 directions u (100 random, and up to
//       50 facets' normals) the ray from the origin leaves the hull, by a linear program over W
//       that knows nothing of qhull, where the nearest reported facet says: at
//       min over facets with a . u > 0 of h(a) / (a . u), to 1e-9 |W| (measured: about 1e-14 |W|).
//       A missing facet nearer than the reported ones would cut such rays short.
// Epsilon, the distance from the origin to the boundary, must then be the minimum of h over
// the facets, computed here: to 1e-6 relative (measured: about 1e-15). Sampling alone (the
// minimum of h over random directions) only bounds epsilon from above; it is checked too.
TEST(GraspQualityTest, EpsilonMatchesIndependentFacetCheck) {
  std::mt19937 rng(2024);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.4, 1.0);
  int checked = 0;
  double worst = 0.0;
  double worst_ray = 0.0;
  for (int trial = 0; trial < 200 && checked < 24; ++trial) {
    const int nc = 3 + trial % 3;
    Eigen::Matrix3Xd p, n;
    testing::RandomSphereGrasp(nc, kSphereRadius, &rng, &p, &n);
    const Eigen::Vector3d c(0.004 * normal(rng), 0.004 * normal(rng), 0.004 * normal(rng));
    const double mu = uniform(rng);
    QualityOptions options;
    options.keep_facets = true;
    const GraspQuality q =
        CalcGraspQuality(p, n, c, ContactModel::kHardFinger, {mu, 0.0, 6}, options);
    if (!q.force_closure) {
      continue;
    }
    ++checked;
    const double L = (p.colwise() - c).colwise().norm().maxCoeff();
    EXPECT_DOUBLE_EQ(q.torque_length, L);
    const Eigen::MatrixXd W = IndependentPrimitiveWrenches(p.colwise() - c, n, mu, 6, L);
    ASSERT_EQ(W.cols(), q.points.cols());
    EXPECT_LT((W - q.points).cwiseAbs().maxCoeff(), 1e-13);
    const double scale = W.colwise().norm().maxCoeff();
    double boundary = std::numeric_limits<double>::infinity();
    for (const HullFacet& facet : q.facets) {
      EXPECT_NEAR(facet.normal.norm(), 1.0, 1e-12);
      const Eigen::VectorXd heights = W.transpose() * facet.normal;
      const double h = heights.maxCoeff();
      EXPECT_NEAR(h, facet.distance, 1e-10 * scale);
      EXPECT_EQ(facet.vertices.size(), 6u);
      for (const int v : facet.vertices) {
        EXPECT_NEAR(heights[v], h, 1e-10 * scale);
      }
      boundary = std::min(boundary, h);
    }
    std::vector<Eigen::Matrix<double, 6, 1>> directions;
    for (int s = 0; s < 100; ++s) {
      Eigen::Matrix<double, 6, 1> u;
      for (int k = 0; k < 6; ++k) u[k] = normal(rng);
      directions.push_back(u.normalized());
    }
    for (size_t f = 0; f < q.facets.size() && f < 50; ++f) directions.push_back(q.facets[f].normal);
    for (const auto& u : directions) {
      double reported = std::numeric_limits<double>::infinity();
      for (const HullFacet& facet : q.facets) {
        const double along = facet.normal.dot(u);
        if (along > 0.0)
          reported = std::min(reported, (W.transpose() * facet.normal).maxCoeff() / along);
      }
      const double exit = RayExit(W, u);
      EXPECT_NEAR(reported, exit, 1e-9 * scale) << "trial " << trial;
      worst_ray = std::max(worst_ray, std::abs(reported - exit) / scale);
    }
    EXPECT_NEAR(q.epsilon, boundary, 1e-6 * boundary);
    worst = std::max(worst, std::abs(q.epsilon - boundary) / boundary);
    double sampled = std::numeric_limits<double>::infinity();
    for (int s = 0; s < 5000; ++s) {
      Eigen::Matrix<double, 6, 1> u;
      for (int k = 0; k < 6; ++k) u[k] = normal(rng);
      u.normalize();
      sampled = std::min(sampled, (W.transpose() * u).maxCoeff());
    }
    EXPECT_GE(sampled, q.epsilon * (1.0 - 1e-12));
  }
  EXPECT_EQ(checked, 24);
  std::printf("epsilon vs facets: worst relative error %.3g; ray exits: worst %.3g of |W|\n", worst,
              worst_ray);
}

// L-infinity, checked through the support function of a Minkowski sum, which is the sum of
// the parts' support functions: h_inf(u) = sum_i max_j u . w_i,j, computed here from the
// independent primitive wrenches without forming a single sum. At the weakest direction u*
// (the nearest facet's normal) h_inf(u*) = epsilon; in every sampled direction
// h_inf(u) >= epsilon. Tolerance 1e-12 relative (roundings of sums of nine products).
TEST(GraspQualityTest, LInfinityEpsilonMatchesSupportFunction) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  p(2, 1) = 0.01;  // break the symmetry a little
  n.col(1) = -p.col(1).normalized();
  QualityOptions inf;
  inf.norm = QualityNorm::kLInfinity;
  const double mu = 0.5;
  const GraspQuality q =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {mu, 0.0, 6}, inf);
  ASSERT_TRUE(q.force_closure) << q.message;
  EXPECT_EQ(q.points.cols(), 6 * 6 * 6);
  const Eigen::MatrixXd W = IndependentPrimitiveWrenches(p, n, mu, 6, q.torque_length);
  const auto support = [&](const Eigen::Matrix<double, 6, 1>& u) {
    double h = 0.0;
    for (int i = 0; i < 3; ++i) h += (W.middleCols(6 * i, 6).transpose() * u).maxCoeff();
    return h;
  };
  EXPECT_NEAR(support(q.weakest_direction), q.epsilon, 1e-12 * q.epsilon);
  std::mt19937 rng(5);
  std::normal_distribution<double> normal;
  for (int s = 0; s < 2000; ++s) {
    Eigen::Matrix<double, 6, 1> u;
    for (int k = 0; k < 6; ++k) u[k] = normal(rng);
    EXPECT_GE(support(u.normalized()), q.epsilon * (1.0 - 1e-12));
  }
  const GraspQuality q1 =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {mu, 0.0, 6});
  EXPECT_TRUE(q1.force_closure);
}

TEST(GraspQualityTest, LimitsAndBadInputThrow) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(6, kSphereRadius, &p, &n);
  QualityOptions inf;
  inf.norm = QualityNorm::kLInfinity;
  // 8^6 = 262144 sums: refused before any is made.
  EXPECT_THROW(CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger,
                                {0.5, 0.0, 8}, inf),
               std::invalid_argument);
  QualityOptions bad_length;
  bad_length.torque_length = -1.0;
  EXPECT_THROW(CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger,
                                {0.5, 0.0, 8}, bad_length),
               std::invalid_argument);
  EXPECT_THROW(
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.5, 0.0, 2}),
      std::invalid_argument);
}

// Degenerate contact sets never crash and never close: all contacts at one point, all
// normals parallel (a flat hull qhull refuses).
TEST(GraspQualityTest, DegenerateGraspsAreNotClosed) {
  Eigen::Matrix3Xd p(3, 4), n(3, 4);
  for (int i = 0; i < 4; ++i) {
    p.col(i) = Eigen::Vector3d(0.01 * i, 0.02 * (i % 2), 0.05);
    n.col(i) = -Eigen::Vector3d::UnitZ();
  }
  const GraspQuality parallel =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.5, 0.0, 8});
  EXPECT_FALSE(parallel.force_closure);
  p.colwise() = Eigen::Vector3d(0.0, 0.0, 0.05);
  const GraspQuality same_point =
      CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, {0.5, 0.0, 8});
  EXPECT_FALSE(same_point.force_closure);
  EXPECT_FALSE(same_point.message.empty());
}

}  // namespace
}  // namespace twinblocks::grasp
