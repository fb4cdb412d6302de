// Fixed-step explicit Runge-Kutta integrators ode1 .. ode5.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::NonlinearPair;
using testing::StepTo;

struct OrderCase {
  std::string solver;
  int order;
  double h;         // s, coarse step; the fine one is h/2
  bool oscillator;  // the test problem: harmonic oscillator over [0, 10], else NonlinearPair
};

void PrintTo(const OrderCase& c, std::ostream* os) { *os << c.solver << " h = " << c.h; }

// Max-norm global error at the end of the run.
double GlobalError(const OrderCase& c, double h) {
  IntegratorOptions options;
  options.fixed_step = h;
  if (c.oscillator) {
    testing::HarmonicOscillator problem;
    const Eigen::Vector2d x0(1.0, 0.5);
    auto integrator = MakeIntegrator(c.solver, &problem, options);
    integrator->Reset(0.0, x0);
    StepTo(integrator.get(), 10.0);
    return (integrator->state() - problem.Exact(10.0, x0)).cwiseAbs().maxCoeff();
  }
  NonlinearPair problem;
  auto integrator = MakeIntegrator(c.solver, &problem, options);
  integrator->Reset(0.0, NonlinearPair::Exact(0.0));
  StepTo(integrator.get(), 2.0);
  return (integrator->state() - NonlinearPair::Exact(2.0)).cwiseAbs().maxCoeff();
}

class FixedStepOrderTest : public ::testing::TestWithParam<OrderCase> {};

// Halving h divides the global error by 2^p within 15%. ode1..ode4 on x' = -2 t x^2,
// y' = y cos t over [0, 2] (nonlinear, non-autonomous). ode5 on x'' = -4 x over [0, 10]: on
// the nonlinear pair its error constant is so small that the sixth-order term still shows
// (ratio 46, 40, 36 for h = 0.1, 0.05, 0.025) until the error reaches roundoff; its nonlinear
// order conditions are checked on the tableau and through ode45.
TEST_P(FixedStepOrderTest, HalvingStepDividesErrorByTwoToTheOrder) {
  const OrderCase& c = GetParam();
  const double e1 = GlobalError(c, c.h);
  const double e2 = GlobalError(c, c.h / 2);
  const double ratio = e1 / e2;
  const double expected = std::pow(2.0, c.order);
  std::printf("[ measure  ] %s h = %g: error %.3e, h/2: %.3e, ratio %.3f (2^%d = %g)\n",
              c.solver.c_str(), c.h, e1, e2, ratio, c.order, expected);
  EXPECT_GT(e2, 1e-13) << "error at roundoff level: the ratio would mean nothing";
  EXPECT_NEAR(ratio, expected, 0.15 * expected);
}

INSTANTIATE_TEST_SUITE_P(AllFixedStep, FixedStepOrderTest,
                         ::testing::Values(OrderCase{"ode1", 1, 1e-3, false},
                                           OrderCase{"ode2", 2, 1e-2, false},
                                           OrderCase{"ode3", 3, 1e-2, false},
                                           OrderCase{"ode4", 4, 2e-2, false},
                                           OrderCase{"ode5", 5, 2.5e-2, true}),
                         [](const auto& info) { return info.param.solver; });

TEST(FixedStepTest, LandsOnTStopBitwiseWithoutSliver) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.fixed_step = 0.1;
  auto integrator = MakeIntegrator("ode4", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  // 0.1 + 0.1 + 0.1 != 0.3 in floating point: the third step must land on 0.3 exactly.
  EXPECT_EQ(StepTo(integrator.get(), 0.3), 3);
  EXPECT_EQ(integrator->time(), 0.3);
  // 1e-12 past a whole number of steps: stretched, not a sliver step.
  const double t_stop = 0.6 + 1e-12;
  EXPECT_EQ(StepTo(integrator.get(), t_stop), 3);
  EXPECT_EQ(integrator->time(), t_stop);
  // A t_stop inside a step shortens that step only.
  EXPECT_EQ(StepTo(integrator.get(), 0.65), 1);
  EXPECT_EQ(integrator->time(), 0.65);
  EXPECT_EQ(integrator->stats().steps, 7);
}

TEST(FixedStepTest, LongRunsStayOnTheGrid) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.fixed_step = 1e-3;
  auto integrator = MakeIntegrator("ode1", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  // 1e-3 is not a binary fraction: summing it 100000 times drifts by ~1e-12, computing
  // t0 + n h does not, so exactly 100000 steps reach t = 100.
  EXPECT_EQ(StepTo(integrator.get(), 100.0), 100000);
  EXPECT_EQ(integrator->time(), 100.0);
}

TEST(FixedStepTest, DoesNotLocateZeroCrossings) {
  testing::FallingBall problem;
  IntegratorOptions options;
  options.fixed_step = 0.01;
  auto integrator = MakeIntegrator("ode4", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  while (integrator->time() < 2.0) {
    const StepResult r = integrator->Step(2.0);
    EXPECT_FALSE(r.zero_crossing);
  }
  EXPECT_EQ(integrator->stats().zero_crossings, 0);
  // ode4 is exact on a quadratic.
  EXPECT_NEAR(integrator->state()[0], 10.0 - 0.5 * 9.81 * 4.0, 1e-12);
}

/// x' = -1e4 x from x = 1, failing (a recoverable flag) once t passes t_fail: with a step past
/// the stability limit the state grows by |1 + h lambda + ...| per step until it overflows.
class FastDecay : public OdeProblem {
 public:
  explicit FastDecay(double t_fail = 1e300) : t_fail_(t_fail) {}
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    if (t > t_fail_) return 1;
    xdot[0] = -1e4 * x[0];
    return 0;
  }

 private:
  double t_fail_;
};

std::string FailureOf(OdeProblem* problem, double step) {
  IntegratorOptions options;
  options.fixed_step = step;
  auto integrator = MakeIntegrator("ode4", problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Ones(1));
  try {
    StepTo(integrator.get(), 1.0);
  } catch (const SolverError& e) {
    return e.what();
  }
  return "";
}

// ode4 at h = 1e-3 on lambda = -1e4 (h |lambda| = 10, past RK4's 2.79) blows up, and says why
// and what to try, as Simulink does; a failure with bounded states does not get that hint.
TEST(FixedStepTest, ABlowUpFromATooLongStepSaysSo) {
  FastDecay unstable;
  const std::string message = FailureOf(&unstable, 1e-3);
  EXPECT_NE(message.find("the states grew without bound"), std::string::npos) << message;
  EXPECT_NE(message.find("h |lambda| < 2.79"), std::string::npos) << message;
  EXPECT_NE(message.find("ode1be or ros2"), std::string::npos) << message;

  FastDecay fails_later(0.5);
  const std::string bounded = FailureOf(&fails_later, 1e-4);  // stable: h |lambda| = 1
  EXPECT_NE(bounded.find("failed (code 1)"), std::string::npos) << bounded;
  EXPECT_EQ(bounded.find("grew without bound"), std::string::npos) << bounded;
}

}  // namespace
}  // namespace twinblocks::solvers
