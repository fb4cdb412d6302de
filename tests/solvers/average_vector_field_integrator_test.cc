// The average vector field method (solvers/average_vector_field_integrator.h): the energy of
// conservative systems kept to round-off at steps that do not resolve their oscillations
// (a hardening spring, a pendulum, a stiff undamped chain), no damping of an unresolved mode,
// second order, and its failures.

#include "solvers/average_vector_field_integrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::StepTo;

// q'' = -q - q^3 (a hardening spring, H = p^2/2 + q^2/2 + q^4/4): its force is cubic, so the
// 3-point Gauss quadrature of the average vector field is exact.
class HardeningSpring : public OdeProblem {
 public:
  int num_states() const override { return 2; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = -x[0] - x[0] * x[0] * x[0];
    return 0;
  }
  static double Energy(const Eigen::VectorXd& x) {
    return 0.5 * x[1] * x[1] + 0.5 * x[0] * x[0] + 0.25 * std::pow(x[0], 4);
  }
};

// q'' = -sin q (a pendulum, H = p^2/2 - cos q): not polynomial, so the quadrature is not exact;
// its error is of the sixth power of the step's motion.
class PendulumProblem : public OdeProblem {
 public:
  int num_states() const override { return 2; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = -std::sin(x[0]);
    return 0;
  }
  static double Energy(const Eigen::VectorXd& x) { return 0.5 * x[1] * x[1] - std::cos(x[0]); }
};

IntegratorOptions Step(double h) {
  IntegratorOptions options;
  options.fixed_step = h;
  return options;
}

// The largest relative change of `energy` over n steps of h from x0.
template <class Problem>
double EnergyDrift(Problem* problem, double h, int n, const Eigen::Vector2d& x0) {
  AverageVectorFieldIntegrator avf(problem, Step(h));
  avf.Reset(0.0, x0);
  const double e0 = Problem::Energy(x0);
  double worst = 0.0;
  for (int k = 1; k <= n; ++k) {
    StepTo(&avf, k * h);
    worst = std::max(worst, std::abs(Problem::Energy(avf.state()) - e0) / std::abs(e0));
  }
  return worst;
}

TEST(AverageVectorFieldTest, KeepsAPolynomialHamiltonianToRoundOff) {
  HardeningSpring problem;
  // Amplitude 2 (the cubic force 8 times the linear one), 0.5 s steps: 5 per period.
  const double drift = EnergyDrift(&problem, 0.5, 2000, Eigen::Vector2d(2.0, 0.0));
  std::printf("[ measure  ] hardening spring, h = 0.5, 2000 steps: energy drift %.2e\n", drift);
  EXPECT_LT(drift, 1e-12);  // round-off over 2000 steps
}

TEST(AverageVectorFieldTest, KeepsAPendulumsEnergyToTheQuadraturesError) {
  PendulumProblem problem;
  // Swinging to 170 degrees, 0.1 s steps; halving the step divides the error by about 2^6.
  const Eigen::Vector2d x0(170.0 * M_PI / 180.0, 0.0);
  const double coarse = EnergyDrift(&problem, 0.1, 1000, x0);
  const double fine = EnergyDrift(&problem, 0.05, 2000, x0);
  std::printf("[ measure  ] pendulum to 170 deg: energy drift %.2e at h = 0.1, %.2e at 0.05\n",
              coarse, fine);
  EXPECT_LT(coarse, 1e-5);
  EXPECT_LT(fine, coarse / 20.0);
}

// A stiff undamped mode (omega = 1e4) stepped at h = 0.01 (h omega = 100) keeps its amplitude:
// the method neither damps it (as ode1be and ros2 would, to nothing) nor lets it grow.
TEST(AverageVectorFieldTest, AnUnresolvedModeIsNeitherDampedNorAmplified) {
  testing::HarmonicOscillator problem(1e4);
  AverageVectorFieldIntegrator avf(&problem, Step(0.01));
  const Eigen::Vector2d x0(1.0, 0.0);
  avf.Reset(0.0, x0);
  StepTo(&avf, 10.0);
  const double amplitude = std::hypot(avf.state()[0], avf.state()[1] / 1e4);
  EXPECT_NEAR(amplitude, 1.0, 1e-12);
}

// Second order: on the oscillator, halving h divides the error at t = 5 by 4.
TEST(AverageVectorFieldTest, IsSecondOrder) {
  testing::HarmonicOscillator problem(2.0);
  const Eigen::Vector2d x0(1.0, 0.5);
  std::vector<double> errors;
  for (const double h : {0.01, 0.005, 0.0025}) {
    AverageVectorFieldIntegrator avf(&problem, Step(h));
    avf.Reset(0.0, x0);
    StepTo(&avf, 5.0);
    errors.push_back((avf.state() - problem.Exact(5.0, x0)).norm());
  }
  EXPECT_NEAR(errors[0] / errors[1], 4.0, 0.05);
  EXPECT_NEAR(errors[1] / errors[2], 4.0, 0.05);
}

// x' = x^2 from 1 blows up at t = 1: a step past it has no solution near the start, and the
// step fails with its time.
TEST(AverageVectorFieldTest, ANewtonIterationThatCannotConvergeFailsTheStepWithItsTime) {
  class BlowUp : public OdeProblem {
   public:
    int num_states() const override { return 1; }
    int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> xdot) override {
      xdot[0] = x[0] * x[0];
      return 0;
    }
  } problem;
  AverageVectorFieldIntegrator avf(&problem, Step(0.3));
  avf.Reset(0.0, Eigen::VectorXd::Ones(1));
  try {
    StepTo(&avf, 3.0);
    FAIL() << "no failure";
  } catch (const SolverError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("avf"));
    EXPECT_LT(e.time(), 1.0);
  }
}

}  // namespace
}  // namespace twinblocks::solvers
