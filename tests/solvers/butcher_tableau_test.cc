#include "solvers/butcher_tableau.h"

#include <gtest/gtest.h>

#include <cmath>

namespace twinblocks::solvers {
namespace {

// sum_i w_i c_i^(k-1) = 1/k for k = 1..p: the quadrature conditions every order-p method
// meets. Together with the full order tests of the integrators they catch typos.
void ExpectQuadratureConditions(const ButcherTableau& t, const Eigen::VectorXd& w, int order) {
  for (int k = 1; k <= order; ++k) {
    double sum = 0.0;
    for (int i = 0; i < t.num_stages(); ++i) sum += w[i] * std::pow(t.c[i], k - 1);
    EXPECT_NEAR(sum, 1.0 / k, 1e-14) << t.name << " k = " << k;
  }
}

TEST(ButcherTableauTest, AllTableausAreConsistent) {
  for (const ButcherTableau& t :
       {EulerTableau(), HeunTableau(), BogackiShampineTableau(), ClassicRungeKuttaTableau(),
        DormandPrinceTableau(), DropFsalStage(BogackiShampineTableau()),
        DropFsalStage(DormandPrinceTableau())}) {
    EXPECT_NO_THROW(t.Validate()) << t.name;
    ExpectQuadratureConditions(t, t.b, t.order);
    if (t.b_hat.size() > 0) ExpectQuadratureConditions(t, t.b_hat, t.embedded_order);
  }
}

TEST(ButcherTableauTest, PairsAreFirstSameAsLast) {
  EXPECT_TRUE(DormandPrinceTableau().is_fsal());
  EXPECT_TRUE(BogackiShampineTableau().is_fsal());
  EXPECT_FALSE(ClassicRungeKuttaTableau().is_fsal());
  EXPECT_EQ(DropFsalStage(DormandPrinceTableau()).num_stages(), 6);
  EXPECT_EQ(DropFsalStage(BogackiShampineTableau()).num_stages(), 3);
}

TEST(ButcherTableauTest, DormandPrinceFifthOrderTreeConditions) {
  // A few order-4 and order-5 conditions on the b weights (Hairer-Norsett-Wanner II.2).
  const ButcherTableau t = DormandPrinceTableau();
  const Eigen::VectorXd ac = t.a * t.c;
  const Eigen::VectorXd aac = t.a * ac;
  EXPECT_NEAR(t.b.dot(ac), 1.0 / 6.0, 1e-14);
  EXPECT_NEAR(t.b.dot(aac), 1.0 / 24.0, 1e-14);
  EXPECT_NEAR(t.b.dot(t.c.cwiseProduct(ac)), 1.0 / 8.0, 1e-14);
  EXPECT_NEAR(t.b.dot(t.a * aac), 1.0 / 120.0, 1e-14);
  EXPECT_NEAR(t.b.dot(t.c.cwiseProduct(t.c).cwiseProduct(ac)), 1.0 / 10.0, 1e-14);
}

TEST(ButcherTableauTest, ValidateRejectsABrokenRowSum) {
  ButcherTableau t = ClassicRungeKuttaTableau();
  t.c[1] = 0.4;
  EXPECT_THROW(t.Validate(), std::logic_error);
}

// The stability boundary on the negative real axis, against the roots of |R(-x)| = 1 of each
// method's stability polynomial: 1 - x (Euler, 2), the Taylor polynomials of degree 3 and 4
// (Bogacki-Shampine's propagated third-order solution and RK4: 2.5127453266, 2.7852935634),
// and Dormand-Prince's, which adds x^6 / 600 to the fifth-degree one (3.3065678926).
TEST(ButcherTableauTest, RealStabilityBoundaries) {
  EXPECT_NEAR(EulerTableau().RealStabilityBoundary(), 2.0, 1e-9);
  EXPECT_NEAR(BogackiShampineTableau().RealStabilityBoundary(), 2.5127453266, 1e-9);
  EXPECT_NEAR(ClassicRungeKuttaTableau().RealStabilityBoundary(), 2.7852935634, 1e-9);
  EXPECT_NEAR(DormandPrinceTableau().RealStabilityBoundary(), 3.3065678926, 1e-9);
}

}  // namespace
}  // namespace twinblocks::solvers
