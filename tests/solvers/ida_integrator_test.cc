// IDA on a true DAE: the pendulum in Cartesian coordinates, index 1.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::AnglePendulum;
using testing::CartesianPendulum;
using testing::StepTo;

constexpr double kGravity = 9.81;  // m/s^2
constexpr double kLength = 1.0;    // m (CartesianPendulum takes L from the initial state)
constexpr double kTheta0 = 0.5;    // rad, released from rest

// (x, y, vx, vy, lambda) for angle theta and rate omega; lambda left at `lambda_guess`.
Eigen::VectorXd CartesianState(double theta, double omega, double lambda_guess) {
  Eigen::VectorXd y(5);
  y << kLength * std::sin(theta), -kLength * std::cos(theta), kLength * std::cos(theta) * omega,
      kLength * std::sin(theta) * omega, lambda_guess;
  return y;
}

// Reset runs IDACalcIC: from a wrong multiplier (0) it finds the consistent one,
// lambda = (v^2 - g y) / L^2 = g cos(theta0) at rest, and leaves the differential part alone.
TEST(IdaTest, ResetMakesTheAlgebraicVariableConsistent) {
  CartesianPendulum problem(kGravity);
  IntegratorOptions options;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  auto integrator = MakeDaeIntegrator(&problem, options);
  const Eigen::VectorXd y0 = CartesianState(kTheta0, 0.0, 0.0);
  integrator->Reset(0.0, y0);
  EXPECT_NEAR(integrator->state()[4], kGravity * std::cos(kTheta0), 1e-8);
  EXPECT_EQ(integrator->state().head(4), y0.head(4));
}

// The Cartesian DAE against the angle ODE (ode45 at rtol 1e-12) over 10 s (about 5 periods),
// compared every 0.1 s. IDA at rtol 1e-8, atol 1e-10. The index-1 form only keeps the
// acceleration-level constraint, so the length x^2 + y^2 - L^2 drifts; both are reported.
TEST(IdaTest, CartesianPendulumMatchesAngleForm) {
  CartesianPendulum dae(kGravity);
  AnglePendulum ode(kLength, kGravity);
  IntegratorOptions dae_options;
  dae_options.rtol = 1e-8;
  dae_options.atol = 1e-10;
  dae_options.locate_zero_crossings = false;
  IntegratorOptions ode_options;
  ode_options.rtol = 1e-12;
  ode_options.atol = 1e-12;
  auto ida = MakeDaeIntegrator(&dae, dae_options);
  auto reference = MakeIntegrator("ode45", &ode, ode_options);
  ida->Reset(0.0, CartesianState(kTheta0, 0.0, 0.0));
  reference->Reset(0.0, Eigen::Vector2d(kTheta0, 0.0));

  double max_position_error = 0.0;
  double max_drift = 0.0;
  double max_lambda_error = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double t = 0.1 * k;
    StepTo(ida.get(), t);
    StepTo(reference.get(), t);
    const Eigen::VectorXd& y = ida->state();
    const double theta = reference->state()[0];
    const double omega = reference->state()[1];
    const Eigen::VectorXd expected = CartesianState(theta, omega, 0.0);
    max_position_error = std::max(max_position_error, (y.head(2) - expected.head(2)).norm());
    max_drift = std::max(max_drift, std::abs(y[0] * y[0] + y[1] * y[1] - kLength * kLength));
    // Tension per unit mass and length: omega^2 + g cos(theta).
    max_lambda_error = std::max(
        max_lambda_error, std::abs(y[4] - (omega * omega + kGravity * std::cos(theta)) / kLength));
  }
  std::printf(
      "[ measure  ] ida pendulum over 10 s: max position error %.2e m, max length drift "
      "%.2e m^2, max lambda error %.2e 1/s^2; %ld steps, %ld rejected, %ld residuals\n",
      max_position_error, max_drift, max_lambda_error, ida->stats().steps,
      ida->stats().rejected_steps, ida->stats().rhs_evals);
  EXPECT_LT(max_position_error, 1e-5);
  EXPECT_LT(max_drift, 1e-5);
  EXPECT_LT(max_lambda_error, 1e-4);
}

// The pendulum as a stabilized index-2 DAE (Gear-Gupta-Leimkuhler), the form the simulator
// gives a mechanism with closed loops: y = (x, y, vx, vy, lambda, mu), unit mass,
//   x' = vx + x mu, y' = vy + y mu, vx' = -x lambda, vy' = -g - y lambda,
//   0 = x vx + y vy, 0 = (x^2 + y^2 - L^2) / 2,
// with its own consistent start (IDACalcIC cannot make one for index 2).
class GglPendulum final : public DaeProblem {
 public:
  int num_states() const override { return 6; }
  int index() const override { return index_; }
  bool has_consistent_start() const override { return consistent_start_; }
  int CalcResidual(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp,
                   Eigen::Ref<Eigen::VectorXd> r) override {
    r[0] = yp[0] - y[2] - y[0] * y[5];
    r[1] = yp[1] - y[3] - y[1] * y[5];
    r[2] = yp[2] + y[0] * y[4];
    r[3] = yp[3] + kGravity + y[1] * y[4];
    r[4] = y[0] * y[2] + y[1] * y[3];
    r[5] = 0.5 * (y[0] * y[0] + y[1] * y[1] - kLength * kLength);
    return 0;
  }
  void GetDifferentialMask(Eigen::Ref<Eigen::VectorXd> d) const override { d << 1, 1, 1, 1, 0, 0; }
  // lambda from the acceleration constraint |v|^2 + p . a = 0; mu = 0.
  int CalcConsistentStart(double t, Eigen::Ref<Eigen::VectorXd> y,
                          Eigen::Ref<Eigen::VectorXd> yp) override {
    y[4] = (y[2] * y[2] + y[3] * y[3] - kGravity * y[1]) / (kLength * kLength);
    y[5] = 0.0;
    yp << y[2], y[3], -y[0] * y[4], -kGravity - y[1] * y[4], 0.0, 0.0;
    return 0;
  }
  int index_ = 2;
  bool consistent_start_ = true;
};

TEST(IdaTest, Index2PendulumKeepsItsLengthAndMatchesAngleForm) {
  GglPendulum dae;
  AnglePendulum ode(kLength, kGravity);
  IntegratorOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  options.locate_zero_crossings = false;
  auto ida = MakeDaeIntegrator(&dae, options);
  auto reference = MakeIntegrator("ode45", &ode, options);
  Eigen::VectorXd y0(6);
  y0 << CartesianState(kTheta0, 0.0, 0.0), 0.0;
  ida->Reset(0.0, y0);
  reference->Reset(0.0, Eigen::Vector2d(kTheta0, 0.0));
  double max_position_error = 0.0, max_drift = 0.0, max_mu = 0.0;
  for (int k = 1; k <= 50; ++k) {
    const double t = 0.1 * k;
    StepTo(ida.get(), t);
    StepTo(reference.get(), t);
    const Eigen::VectorXd& y = ida->state();
    const Eigen::VectorXd expected = CartesianState(reference->state()[0], 0.0, 0.0);
    max_position_error = std::max(max_position_error, (y.head(2) - expected.head(2)).norm());
    max_drift = std::max(max_drift, std::abs(y[0] * y[0] + y[1] * y[1] - kLength * kLength));
    max_mu = std::max(max_mu, std::abs(y[5]));
  }
  // Both constraints hold to the Newton tolerance, not to the integration error.
  EXPECT_LT(max_drift, 1e-11);
  EXPECT_LT(max_position_error, 1e-7);
  EXPECT_LT(max_mu, 1e-6);  // zero on the solution; Newton round-off amplified by 1/h
}

TEST(IdaTest, Index2DaeWithoutItsOwnConsistentStartIsRefused) {
  GglPendulum dae;
  dae.consistent_start_ = false;
  EXPECT_THROW(MakeDaeIntegrator(&dae, IntegratorOptions{}), std::invalid_argument);
}

// Complete elliptic integral of the first kind by the arithmetic-geometric mean.
double EllipticK(double k) {
  double a = 1.0;
  double b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 30; ++i) {
    const double next_a = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = next_a;
  }
  return std::numbers::pi / (2.0 * a);
}

// IDA's rootfinding: released at rest, the pendulum crosses the vertical (x = 0) after a
// quarter period, sqrt(L / g) K(sin(theta0 / 2)), and again half a period later.
TEST(IdaTest, VerticalCrossingAfterAQuarterPeriod) {
  CartesianPendulum problem(kGravity);
  IntegratorOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  auto integrator = MakeDaeIntegrator(&problem, options);
  integrator->Reset(0.0, CartesianState(kTheta0, 0.0, 0.0));
  const double quarter = std::sqrt(kLength / kGravity) * EllipticK(std::sin(kTheta0 / 2.0));
  StepResult r;
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0);
  std::printf("[ measure  ] ida pendulum: vertical at %.12f s, quarter period %.12f s\n", r.t,
              quarter);
  EXPECT_NEAR(r.t, quarter, 1e-8);
  EXPECT_EQ(std::vector<int>(r.crossed.begin(), r.crossed.end()), std::vector<int>{0});
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0);
  EXPECT_NEAR(r.t, 3.0 * quarter, 1e-7);
}

}  // namespace
}  // namespace twinblocks::solvers
