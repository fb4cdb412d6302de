// Behaviour every integrator shares, parameterized over all of them.

#include "solvers/integrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::HarmonicOscillator;
using ::testing::HasSubstr;
using testing::StepTo;

// Accuracy expected on the oscillator at TestOptions(): fixed step h = 1e-3 (avf, second
// order without damping, has the midpoint rule's phase error (h w)^2 / 12 per radian: 1.3e-5
// over the 20 radians), variable step
// rtol 1e-8, atol 1e-10 (the BDF codes, dissipative on an undamped oscillator, accumulate
// about 100 times the tolerance over three periods; ode23s, which controls the local error of
// its second-order result per step, accumulates over its 5500 steps 2.6e-5).
double OscillatorTolerance(const std::string& solver) {
  const std::map<std::string, double> tolerance = {
      {"ode1", 1e-1},   {"ode2", 1e-4},      {"ode3", 1e-7}, {"ode4", 1e-10},
      {"ode5", 1e-11},  {"ode1be", 1e-1},    {"ros2", 1e-3}, {"avf", 1e-4},
      {"ode23s", 1e-4}, {"cvode-bdf", 1e-5}, {"ida", 1e-5}};
  const auto it = tolerance.find(solver);
  return it != tolerance.end() ? it->second : 1e-6;
}

IntegratorOptions TestOptions() {
  IntegratorOptions options;
  options.fixed_step = 1e-3;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  return options;
}

class AllSolversTest : public ::testing::TestWithParam<std::string> {};

// x'' = -4 x from (1, 0.5) over [0, 10] (about 3 periods), checked every 0.5 s against the
// closed form, to OscillatorTolerance().
TEST_P(AllSolversTest, HarmonicOscillatorMatchesClosedForm) {
  const double tol = OscillatorTolerance(GetParam());

  HarmonicOscillator problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  const Eigen::Vector2d x0(1.0, 0.5);
  integrator->Reset(0.0, x0);
  double max_error = 0.0;
  for (int k = 1; k <= 20; ++k) {
    const double t = 0.5 * k;
    StepTo(integrator.get(), t);
    ASSERT_EQ(integrator->time(), t);
    max_error = std::max(max_error, (integrator->state() - problem.Exact(t, x0)).norm());
  }
  std::printf(
      "[ measure  ] %-11s oscillator max error %.3e, %ld steps, %ld rejected, %ld f evals\n",
      GetParam().c_str(), max_error, integrator->stats().steps, integrator->stats().rejected_steps,
      integrator->stats().rhs_evals);
  EXPECT_LT(max_error, tol);
  EXPECT_GT(integrator->stats().steps, 0);
  EXPECT_GE(integrator->stats().rhs_evals, integrator->stats().steps);
}

// Every t_stop is reached bitwise: awkward decimals, a t_stop 1e-10 after the previous one,
// a gap of a few ulp (too short for SUNDIALS to start a step), and Step(time()) is a no-op.
TEST_P(AllSolversTest, LandsExactlyOnEveryTStop) {
  HarmonicOscillator problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  const Eigen::Vector2d x0(1.0, 0.0);
  integrator->Reset(0.0, x0);
  const double stops[] = {0.1,         0.123456789,     0.3, 0.3 + 1e-10, 0.7,
                          0.7 + 4e-16, 1.0 / 3.0 + 0.5, 1.1, 2.0};
  for (const double t_stop : stops) {
    while (integrator->time() < t_stop) {
      const StepResult r = integrator->Step(t_stop);
      ASSERT_LE(r.t, t_stop) << GetParam();
      ASSERT_EQ(r.t, integrator->time());
    }
    EXPECT_EQ(integrator->time(), t_stop) << GetParam();
    const StepResult same = integrator->Step(t_stop);
    EXPECT_EQ(same.t, t_stop);
  }
  const double tol = OscillatorTolerance(GetParam());
  EXPECT_LT((integrator->state() - problem.Exact(2.0, x0)).norm(), tol) << GetParam();
}

TEST_P(AllSolversTest, StepBackwardsIsALogicError) {
  HarmonicOscillator problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  integrator->Reset(1.0, Eigen::Vector2d(1.0, 0.0));
  EXPECT_THROW(integrator->Step(0.5), std::logic_error);
}

// A restart at a new state continues from there (the old derivative must not be reused),
// and counts as a reset.
TEST_P(AllSolversTest, ResetRestartsFromTheNewState) {
  HarmonicOscillator problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  StepTo(integrator.get(), 1.0);
  const Eigen::Vector2d x1(-0.3, 2.0);  // a velocity jump, as after an impact
  integrator->Reset(1.0, x1);
  EXPECT_EQ(integrator->time(), 1.0);
  EXPECT_EQ(integrator->state(), Eigen::VectorXd(x1));
  StepTo(integrator.get(), 2.0);
  const double tol = OscillatorTolerance(GetParam());
  EXPECT_LT((integrator->state() - problem.Exact(1.0, x1)).norm(), tol) << GetParam();
  EXPECT_EQ(integrator->stats().resets, 1);
}

// x' = 1, then NaN from t = 1 on: a SolverError naming the state and carrying a time <= 1;
// time() and state() stay at the last good step.
TEST_P(AllSolversTest, NonFiniteDerivativeThrowsSolverErrorWithTime) {
  testing::NanAfterOne problem;
  IntegratorOptions options = TestOptions();
  options.fixed_step = 0.01;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Zero(1));
  try {
    StepTo(integrator.get(), 2.0);
    FAIL() << GetParam() << ": no SolverError";
  } catch (const SolverError& e) {
    std::printf("[ measure  ] %-11s NaN at t >= 1 reported at t = %.15g: %s\n", GetParam().c_str(),
                e.time(), e.what());
    EXPECT_THAT(e.what(), HasSubstr("state 0"));
    EXPECT_LE(e.time(), 1.0);
    // The fixed-step solvers stop at the step before the bad one; the others retry shorter
    // steps and close in on t = 1 until the step size underflows.
    EXPECT_GT(e.time(), 0.98);
    EXPECT_EQ(integrator->time(), e.time());
    ASSERT_TRUE(std::isfinite(integrator->state()[0]));
    EXPECT_NEAR(integrator->state()[0], integrator->time(), 1e-6);
  }
}

// Every restart makes the implicit solvers form a new Jacobian at their first step, and the
// counts keep each one, and every evaluation of f: ten restarts, at least ten Jacobians (SUNDIALS'
// own counters would keep only the last run's, since its linear solvers zero theirs at the step
// after a ReInit).
TEST_P(AllSolversTest, JacobiansAfterEveryRestartAreCounted) {
  // The oscillator, counting the evaluations the solver asks of it.
  class Counted : public HarmonicOscillator {
   public:
    int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> xdot) override {
      ++evaluations;
      return HarmonicOscillator::CalcDerivatives(t, x, xdot);
    }
    long evaluations = 0;
  } problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  for (int k = 1; k <= 10; ++k) {
    StepTo(integrator.get(), 0.1 * k);
    integrator->Reset(integrator->time(), integrator->state());
  }
  StepTo(integrator.get(), 1.05);
  const std::string name = GetParam();
  const bool uses_jacobian = name == "ode1be" || name == "ros2" || name == "avf" ||
                             name == "ode23s" || name == "cvode-bdf" || name == "cvode-adams" ||
                             name == "arkode-dirk" || name == "ida";
  EXPECT_EQ(integrator->stats().resets, 10) << name;
  EXPECT_EQ(integrator->stats().rhs_evals, problem.evaluations) << name;
  if (uses_jacobian) {
    EXPECT_GE(integrator->stats().jacobian_evals, 11) << name;
  } else {
    EXPECT_EQ(integrator->stats().jacobian_evals, 0) << name;
  }
}

// A fatal evaluation failure (-1) stops the run with the model's own message.
TEST_P(AllSolversTest, FatalEvaluationFailureCarriesTheModelMessage) {
  testing::FailsAtHalf problem;
  auto integrator = MakeIntegrator(GetParam(), &problem, TestOptions());
  integrator->Reset(0.0, Eigen::VectorXd::Ones(1));
  try {
    StepTo(integrator.get(), 1.0);
    FAIL() << GetParam() << ": no SolverError";
  } catch (const SolverError& e) {
    EXPECT_THAT(e.what(), HasSubstr("division by zero")) << GetParam();
    EXPECT_LE(e.time(), 0.5);
    EXPECT_EQ(integrator->time(), e.time());
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, AllSolversTest, ::testing::ValuesIn(IntegratorNames()),
                         [](const auto& info) { return testing::SafeName(info.param); });

}  // namespace
}  // namespace twinblocks::solvers
