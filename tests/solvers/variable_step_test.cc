// Variable-step integrators: accuracy, step-size control, zero crossings.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::FallingBall;
using testing::HarmonicOscillator;
using testing::StepTo;

constexpr double kGravity = FallingBall::kGravity;

// x'' = -4 x over [0, 10] at rtol 1e-10, atol 1e-12 stays within 1e-9 of the closed form.
TEST(Ode45Test, TightToleranceMatchesClosedFormTo1e9) {
  HarmonicOscillator problem;
  IntegratorOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  auto integrator = MakeIntegrator("ode45", &problem, options);
  const Eigen::Vector2d x0(1.0, 0.5);
  integrator->Reset(0.0, x0);
  double max_error = 0.0;
  while (integrator->time() < 10.0) {
    integrator->Step(10.0);
    max_error =
        std::max(max_error, (integrator->state() - problem.Exact(integrator->time(), x0)).norm());
  }
  std::printf("[ measure  ] ode45 rtol 1e-10: max error %.3e over %ld steps\n", max_error,
              integrator->stats().steps);
  EXPECT_LT(max_error, 1e-9);
}

// The error per step follows the tolerance: tightening rtol by 1e3 cuts the error by a
// large factor and costs about 1e3^(1/5) ~ 4x the steps for ode45.
TEST(Ode45Test, ErrorFollowsTolerance) {
  HarmonicOscillator problem;
  const Eigen::Vector2d x0(1.0, 0.5);
  double errors[2];
  long steps[2];
  for (int k = 0; k < 2; ++k) {
    IntegratorOptions options;
    options.rtol = k == 0 ? 1e-5 : 1e-8;
    options.atol = options.rtol * 1e-2;
    auto integrator = MakeIntegrator("ode45", &problem, options);
    integrator->Reset(0.0, x0);
    StepTo(integrator.get(), 10.0);
    errors[k] = (integrator->state() - problem.Exact(10.0, x0)).norm();
    steps[k] = integrator->stats().steps;
  }
  std::printf("[ measure  ] ode45 rtol 1e-5: error %.2e in %ld steps; 1e-8: %.2e in %ld\n",
              errors[0], steps[0], errors[1], steps[1]);
  EXPECT_GT(errors[0] / errors[1], 100.0);
  EXPECT_GT(steps[1], 2 * steps[0]);
  EXPECT_LT(steps[1], 8 * steps[0]);
}

class VariableStepTest : public ::testing::TestWithParam<std::string> {};

// Tolerances of the zero-crossing tests. The ball's path is a parabola, which ode23 and ode45
// integrate exactly, so their crossing error is the location error alone, even at loose
// tolerances. The multistep codes are not exact on it: at rtol 1e-8 CVODE BDF's position
// error alone moved the crossing by 5e-9 s, hence 1e-10 for them. ode23s integrates it exactly
// too (a second-order method on a linear problem whose Jacobian is nilpotent of order 2), so
// its steps grow long, and its crossings are located on a dense output of second order only:
// 5e-9 s off on the second flight of the falling ball, hence CrossingTimeTolerance.
IntegratorOptions CrossingOptions(const std::string& solver) {
  IntegratorOptions options;
  const bool runge_kutta = solver == "ode45" || solver == "ode23";
  options.rtol = runge_kutta ? 1e-6 : 1e-10;
  options.atol = runge_kutta ? 1e-8 : 1e-10;
  return options;
}

double CrossingTimeTolerance(const std::string& solver) { return solver == "ode23s" ? 1e-8 : 1e-9; }

// No step is longer than max_step.
TEST_P(VariableStepTest, MaxStepIsRespected) {
  HarmonicOscillator problem;
  IntegratorOptions options;
  options.rtol = 1e-4;
  options.max_step = 0.01;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  double t_prev = 0.0;
  while (integrator->time() < 1.0) {
    integrator->Step(1.0);
    EXPECT_LE(integrator->time() - t_prev, 0.01 * (1 + 1e-12)) << GetParam();
    t_prev = integrator->time();
  }
  EXPECT_GE(integrator->stats().steps, 100);
}

// A Reset in the middle of a smooth run costs few extra steps: the last step size is kept as
// the next guess (the SUNDIALS codes restart at order 1, which costs more).
TEST_P(VariableStepTest, ResetInTheMiddleCostsFewSteps) {
  HarmonicOscillator problem;
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  const Eigen::Vector2d x0(1.0, 0.0);
  auto straight = MakeIntegrator(GetParam(), &problem, options);
  straight->Reset(0.0, x0);
  StepTo(straight.get(), 10.0);
  auto restarted = MakeIntegrator(GetParam(), &problem, options);
  restarted->Reset(0.0, x0);
  StepTo(restarted.get(), 5.0);
  const Eigen::VectorXd x5 = restarted->state();
  restarted->Reset(5.0, x5);
  StepTo(restarted.get(), 10.0);
  const long extra = restarted->stats().steps - straight->stats().steps;
  std::printf("[ measure  ] %-11s %ld steps straight, %ld with a reset at t = 5\n",
              GetParam().c_str(), straight->stats().steps, restarted->stats().steps);
  const bool runge_kutta = GetParam() == "ode45" || GetParam() == "ode23";
  EXPECT_LE(extra, runge_kutta ? 2 : 40);
  EXPECT_EQ(restarted->stats().resets, 1);
}

// The falling ball from 10 m reaches the ground at sqrt(2 * 10 / g); the crossing is located
// within 1e-9 s, the step ends just past it (x <= 0) and names function 0. After a bounce
// (Reset with x = 0 and the velocity reversed) sitting on g = 0 is not a crossing, and the next
// landing comes 2 v / g later. Tolerances: CrossingOptions().
TEST_P(VariableStepTest, FallingBallCrossingLocatedWithin1e9) {
  FallingBall problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, CrossingOptions(GetParam()));
  const double t_hit = std::sqrt(2.0 * 10.0 / kGravity);
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  StepResult r;
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0) << GetParam();
  std::printf("[ measure  ] %-11s crossing at %.16f, error %.2e s, x = %.2e, %ld g evals\n",
              GetParam().c_str(), r.t, r.t - t_hit, integrator->state()[0],
              integrator->stats().zc_evals);
  EXPECT_NEAR(r.t, t_hit, CrossingTimeTolerance(GetParam()));
  EXPECT_EQ(r.t, integrator->time());
  EXPECT_EQ(std::vector<int>(r.crossed.begin(), r.crossed.end()), std::vector<int>{0});
  EXPECT_LE(integrator->state()[0], 0.0);
  EXPECT_NEAR(integrator->state()[1], -kGravity * t_hit, 1e-7);
  EXPECT_EQ(integrator->stats().zero_crossings, 1);

  // Bounce with restitution 0.5 from exactly x = 0.
  const double v_up = -0.5 * integrator->state()[1];
  integrator->Reset(r.t, Eigen::Vector2d(0.0, v_up));
  const double t_second = r.t + 2.0 * v_up / kGravity;
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0) << GetParam();
  EXPECT_NEAR(r.t, t_second, CrossingTimeTolerance(GetParam())) << GetParam();
  EXPECT_EQ(integrator->stats().zero_crossings, 2);
}

// Two functions crossing close together: the earliest is reported first, and stepping on
// without a Reset finds the second one.
class TwoLevels : public FallingBall {
 public:
  int num_zero_crossings() const override { return 2; }
  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    g[0] = x[0] - 4.9;  // reached second
    g[1] = x[0] - 5.0;  // reached first
    return 0;
  }
};

TEST_P(VariableStepTest, EarliestOfTwoCrossingsFirstThenTheOther) {
  TwoLevels problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, CrossingOptions(GetParam()));
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  StepResult r;
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0);
  EXPECT_NEAR(r.t, std::sqrt(2.0 * 5.0 / kGravity), 1e-9) << GetParam();
  EXPECT_EQ(std::vector<int>(r.crossed.begin(), r.crossed.end()), std::vector<int>{1})
      << GetParam();
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0);
  EXPECT_NEAR(r.t, std::sqrt(2.0 * 5.1 / kGravity), 1e-9) << GetParam();
  EXPECT_EQ(std::vector<int>(r.crossed.begin(), r.crossed.end()), std::vector<int>{0})
      << GetParam();
}

// Crossings from below count too: thrown up from x = -1 at 10 m/s.
TEST_P(VariableStepTest, RisingCrossingIsLocated) {
  FallingBall problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, CrossingOptions(GetParam()));
  integrator->Reset(0.0, Eigen::Vector2d(-1.0, 10.0));
  StepResult r;
  while (!(r = integrator->Step(5.0)).zero_crossing) ASSERT_LT(r.t, 5.0);
  // -1 + 10 t - g t^2 / 2 = 0, smaller root.
  const double t_up = (10.0 - std::sqrt(100.0 - 2.0 * kGravity)) / kGravity;
  EXPECT_NEAR(r.t, t_up, 1e-9) << GetParam();
  EXPECT_GE(integrator->state()[0], 0.0);
}

// With location switched off, steps run through the crossing.
TEST_P(VariableStepTest, LocationCanBeSwitchedOff) {
  FallingBall problem;
  IntegratorOptions options;
  options.locate_zero_crossings = false;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  while (integrator->time() < 2.0) EXPECT_FALSE(integrator->Step(2.0).zero_crossing);
  EXPECT_EQ(integrator->stats().zc_evals, 0);
}

// x' = -x, whose model refuses (returns +1, recoverable) to evaluate at x < 0. A first step of
// 50 s sends explicit stages and implicit predictors there; the solvers must retry with
// shorter steps and still reach e^-5 at t = 5.
class RefusesNegative : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    if (x[0] < 0.0) return 1;
    xdot[0] = -x[0];
    return 0;
  }
};

TEST_P(VariableStepTest, RecoverableFailureShortensTheStep) {
  RefusesNegative problem;
  IntegratorOptions options;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  options.initial_step = 50.0;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Ones(1));
  StepTo(integrator.get(), 5.0);
  std::printf("[ measure  ] %-11s recovered: %ld steps, %ld rejected\n", GetParam().c_str(),
              integrator->stats().steps, integrator->stats().rejected_steps);
  EXPECT_NEAR(integrator->state()[0], std::exp(-5.0), 1e-6) << GetParam();
  EXPECT_GT(integrator->stats().rejected_steps, 0) << GetParam();
}

// A C++ exception escaping the model is caught at the C boundary of SUNDIALS (or passes
// through the Runge-Kutta code, which has none) and ends as an error naming its text.
class Throws : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    if (t > 0.5) throw std::runtime_error("lookup table out of range");
    xdot[0] = 1.0;
    return 0;
  }
};

TEST_P(VariableStepTest, ExceptionInTheModelBecomesAnError) {
  Throws problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, {});
  integrator->Reset(0.0, Eigen::VectorXd::Zero(1));
  try {
    StepTo(integrator.get(), 1.0);
    FAIL() << GetParam() << ": no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("lookup table out of range")) << GetParam();
    // The Runge-Kutta and Rosenbrock codes let the model's exception through as it is.
    if (GetParam() != "ode45" && GetParam() != "ode23" && GetParam() != "ode23s") {
      EXPECT_NE(dynamic_cast<const SolverError*>(&e), nullptr) << GetParam();
    }
  }
  EXPECT_LE(integrator->time(), 0.5 + 1e-12);
}

// A derivative that cannot be evaluated at the (re)start: the error says where, in the
// problem's own words (which block, which state), whichever solver meets it.
class UnusableAtStart : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = std::numeric_limits<double>::infinity();
    return 1;
  }
  const char* last_error() const override { return "the derivative of plant state 0 is inf"; }
};

TEST_P(VariableStepTest, UnusableDerivativeAtTheStartIsNamedInTheError) {
  UnusableAtStart problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, {});
  try {
    integrator->Reset(0.0, Eigen::VectorXd::Zero(1));
    StepTo(integrator.get(), 1.0);
    FAIL() << GetParam() << ": no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("the derivative of plant state 0 is inf"))
        << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, VariableStepTest,
                         ::testing::ValuesIn(testing::VariableStepNames()),
                         [](const auto& info) { return testing::SafeName(info.param); });

}  // namespace
}  // namespace twinblocks::solvers
