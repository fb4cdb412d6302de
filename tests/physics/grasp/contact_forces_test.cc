#include "physics/grasp/contact_forces.h"

#include <gtest/gtest.h>

#include <random>

#include "physics/grasp/friction_cone.h"
#include "physics/grasp/grasp_matrix.h"
#include "tests/physics/grasp/grasp_test_helpers.h"

namespace twinblocks::grasp {
namespace {

using testing::kSphereRadius;
using testing::kWeight;

Wrench GraspGravity() {
  Wrench w = Wrench::Zero();
  w[2] = -kWeight;
  return w;
}

// Every f_i inside its linearized cone (facets >= -tol) and G f = -w.
void ExpectForcesHold(const Eigen::MatrixXd& G, ContactModel model, const FrictionCone& cone,
                      const Wrench& w, const Eigen::VectorXd& f, double tol) {
  EXPECT_LT((G * f + w).cwiseAbs().maxCoeff(), tol) << "G f + w = " << (G * f + w).transpose();
  EXPECT_GE(CalcFrictionMargin(f, model, cone), -tol);
}

// H1. The minimum-norm forces that hold the weight m g of the three-finger equator grasp:
// -G^+ w = -G^T (G G^T)^-1 w with G G^T = diag(3, 3, 3, ...) (grasp_matrix_test) gives
// G^T [0; 0; m g / 3; 0; 0; 0]: each contact's t1 = z component is m g / 3, all else 0.
// Tolerance 1e-13 N (roundings of m g ~ 2 N).
TEST(ContactForcesTest, MinNormForcesHoldWeightEqually) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  const MinNormForces forces = CalcMinNormForces(grasp.G, GraspGravity());
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(9);
  expected[1] = expected[4] = expected[7] = kWeight / 3.0;
  EXPECT_LT((forces.f - expected).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT(forces.residual, 1e-13);
}

// The internal forces: G has rank 6 here, so 9 - 6 = 3 of them, orthonormal and in G's null
// space (1e-14). For three equator contacts they include the equal squeeze f_n = 1 each.
TEST(ContactForcesTest, InternalForcesSpanTheNullSpace) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  const Eigen::MatrixXd E = CalcInternalForceBasis(grasp.G);
  ASSERT_EQ(E.rows(), 9);
  ASSERT_EQ(E.cols(), 3);
  EXPECT_LT((grasp.G * E).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_TRUE((E.transpose() * E).isIdentity(1e-14));
  Eigen::VectorXd squeeze = Eigen::VectorXd::Zero(9);
  squeeze[0] = squeeze[3] = squeeze[6] = 1.0;
  EXPECT_LT((E * (E.transpose() * squeeze) - squeeze).norm(), 1e-14);
}

// Least squeeze, closed form: each contact's vertical force is at most mu f_n (an edge of the
// 8-edge cone lies along t1 = z, so the linearized cone reaches the true cone there), the
// three must carry m g, so sum f_n >= m g / mu, reached by f_n = m g / (3 mu), f_t1 = m g / 3
// at each contact. Tolerances 1e-9 for G f = -w and the cones (GLPK's exact refinement makes
// them rounding-level), 1e-12 relative for the optimum.
TEST(ContactForcesTest, LeastSqueezeMatchesClosedForm) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  for (const double mu : {0.3, 0.5, 1.0}) {
    const FrictionCone cone{mu, 0.0, 8};
    const ContactForces forces =
        CalcLeastSqueezeForces(grasp.G, ContactModel::kHardFinger, cone, GraspGravity());
    ASSERT_TRUE(forces.feasible) << forces.message;
    ExpectForcesHold(grasp.G, ContactModel::kHardFinger, cone, GraspGravity(), forces.f, 1e-9);
    EXPECT_NEAR(forces.total_normal_force, kWeight / mu, 1e-12 * kWeight / mu);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(forces.f[3 * i], kWeight / (3 * mu), 1e-9);
      EXPECT_NEAR(forces.f[3 * i + 1], kWeight / 3, 1e-9);
    }
  }
}

// The largest margin: with normal forces at most F, by symmetry each contact pushes F and
// lifts m g / 3 along z (an edge direction). Its distance from the nearest facet of the
// 8-edge pyramid (mu cos(pi/8) f_n - cos(phi) f_t1 - sin(phi) f_t2 >= 0, phi = pi/8 nearest)
// is (mu cos(pi/8) F - cos(pi/8) m g / 3) / sqrt(1 + mu^2 cos^2(pi/8)). Tolerances as above.
TEST(ContactForcesTest, LargestMarginMatchesSymmetricSolution) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  const FrictionCone cone{0.5, 0.0, 8};
  const double F = 10.0;
  const ContactForces forces =
      CalcLargestMarginForces(grasp.G, ContactModel::kHardFinger, cone, GraspGravity(), F);
  ASSERT_TRUE(forces.feasible) << forces.message;
  ExpectForcesHold(grasp.G, ContactModel::kHardFinger, cone, GraspGravity(), forces.f, 1e-9);
  const double c8 = std::cos(std::numbers::pi / 8);
  const double margin = (0.5 * c8 * F - c8 * kWeight / 3) / std::sqrt(1 + 0.25 * c8 * c8);
  EXPECT_NEAR(forces.margin, margin, 1e-9);
  EXPECT_NEAR(forces.total_normal_force, 3 * F, 1e-9);
}

// Random grasps and wrenches, every model: both LPs' forces balance w and lie in the cones
// (1e-9), and least squeeze never squeezes more than the largest-margin forces.
TEST(ContactForcesTest, RandomGraspsBalanceInsideCones) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  int solved = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int nc = 3 + trial % 3;
    Eigen::Matrix3Xd p, n;
    testing::RandomSphereGrasp(nc, kSphereRadius, &rng, &p, &n);
    const ContactModel model = trial % 2 ? ContactModel::kHardFinger : ContactModel::kSoftFinger;
    const FrictionCone cone{0.6, 0.002, 8};
    const GraspMatrix grasp = CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), model);
    Wrench w;
    for (int k = 0; k < 6; ++k) w[k] = normal(rng) * (k < 3 ? 1.0 : 0.01);
    const ContactForces least = CalcLeastSqueezeForces(grasp.G, model, cone, w);
    const ContactForces margin = CalcLargestMarginForces(grasp.G, model, cone, w, 1e4);
    EXPECT_EQ(least.feasible, margin.feasible) << trial;
    if (!least.feasible) {
      EXPECT_FALSE(least.message.empty());
      continue;
    }
    ++solved;
    ExpectForcesHold(grasp.G, model, cone, w, least.f, 1e-9);
    ExpectForcesHold(grasp.G, model, cone, w, margin.f, 1e-9);
    EXPECT_LE(least.total_normal_force, margin.total_normal_force + 1e-9);
    EXPECT_GE(margin.margin, least.margin - 1e-9);
  }
  EXPECT_GE(solved, 10);
}

// What cannot be held is a result, not an exception: frictionless fingers on the equator
// cannot lift a weight, and a finger limit below the need fails the margin LP.
TEST(ContactForcesTest, InfeasibleIsReported) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  const FrictionCone no_friction{0.0, 0.0, 8};
  const ContactForces least =
      CalcLeastSqueezeForces(grasp.G, ContactModel::kHardFinger, no_friction, GraspGravity());
  EXPECT_FALSE(least.feasible);
  EXPECT_NE(least.message.find("no contact forces"), std::string::npos) << least.message;
  const FrictionCone cone{0.5, 0.0, 8};
  // m g / (3 mu) is needed per finger; allow half of it.
  const ContactForces weak = CalcLargestMarginForces(grasp.G, ContactModel::kHardFinger, cone,
                                                     GraspGravity(), kWeight / 3.0);
  EXPECT_FALSE(weak.feasible);
  EXPECT_NE(weak.message.find("friction cones"), std::string::npos) << weak.message;
}

TEST(ContactForcesTest, BadInputThrows) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, kSphereRadius, &p, &n);
  const GraspMatrix grasp =
      CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  Wrench nan = GraspGravity();
  nan[4] = std::nan("");
  EXPECT_THROW(CalcMinNormForces(grasp.G, nan), std::invalid_argument);
  EXPECT_THROW(
      CalcLeastSqueezeForces(grasp.G, ContactModel::kSoftFinger, FrictionCone{}, GraspGravity()),
      std::invalid_argument);  // 9 columns are not 4 per contact
  EXPECT_THROW(CalcLeastSqueezeForces(grasp.G, ContactModel::kHardFinger, FrictionCone{-0.1, 0, 8},
                                      GraspGravity()),
               std::invalid_argument);
  EXPECT_THROW(CalcLargestMarginForces(grasp.G, ContactModel::kHardFinger,
                                       FrictionCone{0.5, 0, 1000}, GraspGravity(), 10.0),
               std::invalid_argument);
  EXPECT_THROW(CalcLargestMarginForces(grasp.G, ContactModel::kHardFinger, FrictionCone{},
                                       GraspGravity(), -1.0),
               std::invalid_argument);
  EXPECT_THROW(CalcInternalForceBasis(Eigen::MatrixXd::Zero(5, 3)), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
