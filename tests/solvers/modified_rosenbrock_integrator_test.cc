// ode23s, the variable-step modified Rosenbrock pair (solvers/modified_rosenbrock_integrator.h):
// its second-order formula's order with exact, differenced and wrong Jacobians (a W-method),
// L-stable steps far beyond an explicit method's on stiff problems, error control, the dense
// output, and bitwise repeats after a restore.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::StepTo;

using testing::NonlinearPairWithJacobian;

/// Steps of exactly h (the error test is made to pass: tolerances of 1e6), so that the
/// order of the formula itself shows.
double FixedStepPairError(double h, double scale, bool analytic, int jacobian_steps = 1) {
  NonlinearPairWithJacobian with_jacobian(scale);
  testing::NonlinearPair without;
  OdeProblem& problem = analytic ? static_cast<OdeProblem&>(with_jacobian) : without;
  IntegratorOptions options;
  options.rtol = options.atol = 1e6;
  options.initial_step = options.max_step = h;
  options.jacobian_steps = jacobian_steps;
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  integrator->Reset(0.0, testing::NonlinearPair::Exact(0.0));
  StepTo(integrator.get(), 2.0);
  EXPECT_NEAR(integrator->stats().steps, 2.0 / h, 1.0);  // rounding may leave one short step
  EXPECT_NEAR(integrator->stats().jacobian_evals, 2.0 / h / jacobian_steps, 1.0);
  return (integrator->state() - testing::NonlinearPair::Exact(2.0)).cwiseAbs().maxCoeff();
}

// Halving h divides the error by 4 within 15%, with the exact Jacobian, a differenced one, none
// at all (J = 0: the formula is then explicit) and three times the exact one: the order of a
// W-method does not depend on J (nor on T = df/dt, which is with every one of them here).
TEST(ModifiedRosenbrockTest, SecondOrderWithAnyJacobian) {
  struct Case {
    double scale;
    bool analytic;
    const char* what;
  };
  for (const Case& c : {Case{1.0, true, "exact J"}, Case{1.0, false, "differenced J"},
                        Case{0.0, true, "J = 0"}, Case{3.0, true, "3 J"}}) {
    const double e1 = FixedStepPairError(1e-2, c.scale, c.analytic);
    const double e2 = FixedStepPairError(5e-3, c.scale, c.analytic);
    std::printf("[ measure  ] ode23s (%s) h = 0.01: error %.3e, h/2: %.3e, ratio %.3f\n", c.what,
                e1, e2, e1 / e2);
    EXPECT_NEAR(e1 / e2, 4.0, 0.6) << c.what;
  }
}

// A Jacobian kept over 4 steps (formed at every 4th) is another matrix J for the steps in
// between: the order stays 2.
TEST(ModifiedRosenbrockTest, SecondOrderWithAJacobianKeptOverSteps) {
  for (const bool analytic : {true, false}) {
    const double e1 = FixedStepPairError(1e-2, 1.0, analytic, 4);
    const double e2 = FixedStepPairError(5e-3, 1.0, analytic, 4);
    std::printf(
        "[ measure  ] ode23s (J kept 4 steps, %s) h = 0.01: error %.3e, h/2: %.3e, "
        "ratio %.3f\n",
        analytic ? "exact" : "differenced", e1, e2, e1 / e2);
    EXPECT_NEAR(e1 / e2, 4.0, 0.6);
  }
}

// Van der Pol at mu = 1000, whose Jacobian swings between the slow branches and the jumps:
// a J kept over 3 steps still gives the reference within the same 1e-2 as a new J every step
// (the jumps reject steps, and a retry forms J anew), with a third of the Jacobians or fewer
// plus one per rejected step.
TEST(ModifiedRosenbrockTest, JacobianKeptOverStepsOnVanDerPol) {
  auto run = [](const std::string& solver, double rtol, double atol, int jacobian_steps) {
    testing::VanDerPol problem(1000.0);
    IntegratorOptions options;
    options.rtol = rtol;
    options.atol = atol;
    options.jacobian_steps = jacobian_steps;
    auto integrator = MakeIntegrator(solver, &problem, options);
    integrator->Reset(0.0, Eigen::Vector2d(2.0, 0.0));
    StepTo(integrator.get(), 3000.0);
    return std::pair<Eigen::Vector2d, IntegratorStats>(integrator->state(), integrator->stats());
  };
  const Eigen::Vector2d reference = run("arkode-dirk", 1e-10, 1e-10, 1).first;
  const auto [x, stats] = run("ode23s", 1e-5, 1e-8, 3);
  std::printf(
      "[ measure  ] ode23s J kept 3 steps: y = (%.8f, %.6e), %ld steps, %ld rejected, "
      "%ld Jacobians\n",
      x[0], x[1], stats.steps, stats.rejected_steps, stats.jacobian_evals);
  EXPECT_LT((x - reference).cwiseAbs().maxCoeff(), 1e-2);
  EXPECT_LE(stats.jacobian_evals, stats.steps / 3 + stats.rejected_steps + 1);
  EXPECT_LT(stats.steps, 20000);
}

TEST(ModifiedRosenbrockTest, JacobianStepsBelowOneIsRejected) {
  testing::VanDerPol problem(1.0);
  IntegratorOptions options;
  options.jacobian_steps = 0;
  EXPECT_THROW(MakeIntegrator("ode23s", &problem, options), std::invalid_argument);
}

/// x' = lambda x beside y' = 1, with the exact Jacobian.
class StiffDecayWithJacobian : public OdeProblem {
 public:
  explicit StiffDecayWithJacobian(double lambda) : lambda_(lambda) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = lambda_ * x[0];
    xdot[1] = 1.0;
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J.setZero();
    J(0, 0) = lambda_;
    return 0;
  }

 private:
  double lambda_;
};

// lambda = -1e6 over [0, 1]: the fast transient (time constant 1e-6 s) is resolved to the
// tolerance, in about 20 steps per e-fold; once it has decayed the steps grow to the whole
// remaining interval, where an explicit method would stay held to h < 3e-6 s (4e5 steps).
// The stiff state ends at 0 to the tolerance and the other one exactly at 1.
TEST(ModifiedRosenbrockTest, StiffDecayTakesLongStepsOnceTheTransientIsGone) {
  StiffDecayWithJacobian problem(-1e6);
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-9;
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  StepTo(integrator.get(), 1e-4);
  const long transient_steps = integrator->stats().steps;
  StepTo(integrator.get(), 1.0);
  const long later_steps = integrator->stats().steps - transient_steps;
  std::printf(
      "[ measure  ] ode23s stiff decay lambda = -1e6: %ld steps to 1e-4 s, %ld from there "
      "to 1 s, %ld rejected, x = %.3e\n",
      transient_steps, later_steps, integrator->stats().rejected_steps, integrator->state()[0]);
  EXPECT_LT(transient_steps, 500);
  EXPECT_LT(later_steps, 20);
  EXPECT_LT(std::abs(integrator->state()[0]), 1e-9);
  EXPECT_NEAR(integrator->state()[1], 1.0, 1e-12);
}

struct PrRun {
  double error;
  IntegratorStats stats;
};

using testing::ProtheroRobinson;
using testing::ProtheroRobinsonWithoutT;

PrRun RunProtheroRobinson(OdeProblem* problem) {
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-9;
  auto integrator = MakeIntegrator("ode23s", problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Constant(1, 2.0));
  StepTo(integrator.get(), 1.0);
  return {std::abs(integrator->state()[0] - ProtheroRobinson::Exact(1.0, 2.0)),
          integrator->stats()};
}

// With T (formed as MATLAB does, one evaluation per Jacobian) the error estimate sees the
// W-method's true error: about 800 steps to 1 s at rtol 1e-6, x(1) within 1e-6 (measured
// 4e-8). Without it, the third-order estimate, exact only with t's column of the Jacobian,
// holds the steps 20 times shorter (about 16600 then).
TEST(ModifiedRosenbrockTest, StiffProblemDrivenThroughTimeTakesLongStepsWithDfDt) {
  ProtheroRobinson with_t;
  ProtheroRobinsonWithoutT without_t;
  const PrRun a = RunProtheroRobinson(&with_t);
  const PrRun b = RunProtheroRobinson(&without_t);
  std::printf(
      "[ measure  ] ode23s Prothero-Robinson lambda = -1e4 to 1 s: with df/dt %ld steps, "
      "error %.2e; without %ld steps, error %.2e\n",
      a.stats.steps, a.error, b.stats.steps, b.error);
  EXPECT_LT(a.error, 1e-6);
  EXPECT_LT(a.stats.steps, 1500);
  EXPECT_GT(b.stats.steps, 10 * a.stats.steps);
  // T costs one evaluation per Jacobian, and none for a problem that declares it needs none.
  const auto evaluations = [](const IntegratorStats& s) {
    return 1 + 2 * (s.steps + s.rejected_steps);  // f at the start, then two per attempt
  };
  EXPECT_EQ(a.stats.rhs_evals, evaluations(a.stats) + a.stats.jacobian_evals * 2);
  EXPECT_EQ(b.stats.rhs_evals, evaluations(b.stats) + b.stats.jacobian_evals);
}

// Van der Pol at mu = 1000 over [0, 3000]: ode23s at rtol 1e-5 agrees with ARKODE's DIRK at
// 1e-10 within 1e-2 (on the slow branch a shift of the jumps by dt moves y1 by 1.2e-3 dt) in a
// small fraction of ode45's steps (about 1.7e6 at rtol 1e-6, tests/solvers/stiff_test.cc).
TEST(ModifiedRosenbrockTest, VanDerPolMu1000InFewSteps) {
  auto run = [](const std::string& solver, double rtol, double atol) {
    testing::VanDerPol problem(1000.0);
    IntegratorOptions options;
    options.rtol = rtol;
    options.atol = atol;
    auto integrator = MakeIntegrator(solver, &problem, options);
    integrator->Reset(0.0, Eigen::Vector2d(2.0, 0.0));
    StepTo(integrator.get(), 3000.0);
    std::printf(
        "[ measure  ] %-11s rtol %g: y = (%.8f, %.6e), %ld steps, %ld rejected, %ld f "
        "evals\n",
        solver.c_str(), rtol, integrator->state()[0], integrator->state()[1],
        integrator->stats().steps, integrator->stats().rejected_steps,
        integrator->stats().rhs_evals);
    return std::pair<Eigen::Vector2d, long>(integrator->state(), integrator->stats().steps);
  };
  const auto [reference, reference_steps] = run("arkode-dirk", 1e-10, 1e-10);
  const auto [x, steps] = run("ode23s", 1e-5, 1e-8);
  EXPECT_LT((x - reference).cwiseAbs().maxCoeff(), 1e-2);
  EXPECT_LT(steps, 20000);
}

// Tightening the tolerance by 1000 makes the error smaller by about 1000^(2/3) (the second-
// order result, its local error controlled per step): at least 30 times.
TEST(ModifiedRosenbrockTest, ErrorFollowsTheTolerance) {
  double errors[2];
  long steps[2];
  const double rtols[2] = {1e-4, 1e-7};
  for (int k = 0; k < 2; ++k) {
    NonlinearPairWithJacobian problem(1.0);
    IntegratorOptions options;
    options.rtol = rtols[k];
    options.atol = 1e-3 * rtols[k];
    auto integrator = MakeIntegrator("ode23s", &problem, options);
    integrator->Reset(0.0, testing::NonlinearPair::Exact(0.0));
    StepTo(integrator.get(), 2.0);
    errors[k] = (integrator->state() - testing::NonlinearPair::Exact(2.0)).cwiseAbs().maxCoeff();
    steps[k] = integrator->stats().steps;
  }
  std::printf("[ measure  ] ode23s rtol 1e-4: error %.2e in %ld steps; 1e-7: %.2e in %ld\n",
              errors[0], steps[0], errors[1], steps[1]);
  EXPECT_GT(errors[0] / errors[1], 30.0);
  EXPECT_LT(errors[1], 1e-4);
}

// Largest error of the dense output at s = 1/4, 1/2, 3/4 of every step of a run to t_end;
// also checks that it meets every step's end exactly.
template <class Problem, class Exact>
double DenseOutputError(Problem& problem, const Eigen::VectorXd& x0, double t_end,
                        const Exact& exact, long* steps) {
  IntegratorOptions options;
  options.rtol = 1e-5;
  options.atol = 1e-8;
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  EXPECT_TRUE(integrator->has_dense_output());
  integrator->Reset(0.0, x0);
  double max_error = 0.0;
  Eigen::VectorXd x(x0.size());
  while (integrator->time() < t_end) {
    const double t0 = integrator->time();
    integrator->Step(t_end);
    const double t1 = integrator->time();
    for (double s : {0.25, 0.5, 0.75}) {
      const double t = t0 + s * (t1 - t0);
      integrator->Interpolate(t, x);
      max_error = std::max(max_error, (x - exact(t)).cwiseAbs().maxCoeff());
    }
    integrator->Interpolate(t1, x);
    EXPECT_EQ(x, integrator->state());
  }
  *steps = integrator->stats().steps;
  return max_error;
}

// On states J leaves alone (the pair with J = 0 declared: nothing stiff) the dense output is
// the cubic Hermite interpolant, third order; on states J couples (the oscillator with a
// differenced, exact Jacobian) Shampine and Reichelt's, second order. Both stay within the
// error the steps themselves make at rtol 1e-5 (measured 8e-5 and 1.3e-4 at the ends).
TEST(ModifiedRosenbrockTest, DenseOutputFollowsTheSolutionInsideSteps) {
  long steps = 0;
  NonlinearPairWithJacobian pair(0.0);
  const double pair_error = DenseOutputError(pair, testing::NonlinearPair::Exact(0.0), 2.0,
                                             &testing::NonlinearPair::Exact, &steps);
  std::printf("[ measure  ] ode23s dense output (Hermite) inside %ld steps: %.2e\n", steps,
              pair_error);
  EXPECT_LT(pair_error, 1e-3);
  testing::HarmonicOscillator oscillator;
  const Eigen::Vector2d x0(1.0, 0.5);
  const double oscillator_error = DenseOutputError(
      oscillator, x0, 3.0, [&](double t) { return oscillator.Exact(t, x0); }, &steps);
  std::printf("[ measure  ] ode23s dense output (W-filtered) inside %ld steps: %.2e\n", steps,
              oscillator_error);
  EXPECT_LT(oscillator_error, 1e-3);
}

// Runs `run_on` (it returns the step times and the final state), restores `snapshot`, runs
// it again, and expects both runs to be the same to the last bit.
template <class RunOn>
void ExpectRepeatsAfterRestore(Integrator* integrator, const IntegratorSnapshot& snapshot,
                               RunOn run_on) {
  const auto first = run_on();
  integrator->RestoreState(snapshot);
  const auto second = run_on();
  EXPECT_EQ(first.first, second.first);
  EXPECT_EQ(first.second, second.second);
}

// A snapshot taken between bounces of the falling ball, restored, repeats the following steps,
// crossings and states bitwise; also with a Jacobian kept over steps, which the snapshot holds.
class RestoredSnapshot : public ::testing::TestWithParam<int> {};

TEST_P(RestoredSnapshot, RepeatsStepsAndCrossingsBitwise) {
  testing::FallingBall problem;
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  options.jacobian_steps = GetParam();
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  StepTo(integrator.get(), 0.7);
  IntegratorSnapshot snapshot;
  integrator->SaveState(&snapshot);
  auto run_on = [&] {
    std::vector<double> times;
    for (int bounces = 0; bounces < 3;) {
      const StepResult r = integrator->Step(10.0);
      times.push_back(r.t);
      if (r.zero_crossing) {
        ++bounces;
        integrator->Reset(r.t, Eigen::Vector2d(0.0, -0.8 * integrator->state()[1]));
      }
    }
    return std::pair(times, Eigen::VectorXd(integrator->state()));
  };
  ExpectRepeatsAfterRestore(integrator.get(), snapshot, run_on);
}

INSTANTIATE_TEST_SUITE_P(ModifiedRosenbrockTest, RestoredSnapshot, ::testing::Values(1, 5));

// Van der Pol's Jacobian changes along the solution: a restored run repeats the original
// bitwise only when the snapshot holds the J that was kept over the following steps.
TEST(ModifiedRosenbrockTest, RestoredSnapshotHoldsTheKeptJacobian) {
  testing::VanDerPol problem(10.0);
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  options.jacobian_steps = 4;
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(2.0, 0.0));
  // Stop right after a step that formed J, so that the next steps of the restored run must
  // use the saved one.
  StepTo(integrator.get(), 1.0);
  long formed_before = 0;
  do {
    formed_before = integrator->stats().jacobian_evals;
    integrator->Step(100.0);
  } while (integrator->stats().jacobian_evals == formed_before);
  IntegratorSnapshot snapshot;
  integrator->SaveState(&snapshot);
  auto run_on = [&] {
    std::vector<double> times;
    for (int k = 0; k < 40; ++k) times.push_back(integrator->Step(100.0).t);
    return std::pair(times, Eigen::VectorXd(integrator->state()));
  };
  ExpectRepeatsAfterRestore(integrator.get(), snapshot, run_on);
}

/// J = 1 / (d h0) makes W = I - h d J singular at the first step h0 = 0.1: the step is
/// rejected and retried shorter, not a failure.
class SingularAtFirstStep : public OdeProblem {
 public:
  static constexpr double kD = 1.0 / (2.0 + std::numbers::sqrt2);
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = -x[0];
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J(0, 0) = 1.0 / (kD * 0.1);
    return 0;
  }
};

TEST(ModifiedRosenbrockTest, SingularIterationMatrixShortensTheStep) {
  SingularAtFirstStep problem;
  IntegratorOptions options;
  options.rtol = 1e-3;
  options.initial_step = 0.1;
  auto integrator = MakeIntegrator("ode23s", &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Constant(1, 1.0));
  StepTo(integrator.get(), 1.0);
  EXPECT_GE(integrator->stats().rejected_steps, 1);
  // J is far from the true one (+34 against -1), which costs the error estimate its accuracy.
  EXPECT_NEAR(integrator->state()[0], std::exp(-1.0), 3e-2);
}

/// Two decaying states whose Jacobian has a NaN in the row of the second.
class NanJacobian : public OdeProblem {
 public:
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot = -x;
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J.setZero();
    J(0, 0) = -1.0;
    J(1, 0) = std::numeric_limits<double>::quiet_NaN();
    return 0;
  }
  std::string DescribeState(int i) const override { return "x" + std::to_string(i); }
};

// A NaN in J stays at any step size: the first factorization fails, naming the state's row,
// for ode23s and the fixed-step methods alike.
TEST(ModifiedRosenbrockTest, NanJacobianFailsAtOnceNamingTheState) {
  for (const char* solver : {"ode23s", "ros2", "ode1be"}) {
    SCOPED_TRACE(solver);
    NanJacobian problem;
    IntegratorOptions options;
    options.fixed_step = 0.01;
    auto integrator = MakeIntegrator(solver, &problem, options);
    integrator->Reset(0.0, Eigen::VectorXd::Ones(2));
    try {
      integrator->Step(1.0);
      ADD_FAILURE() << "no failure";
    } catch (const SolverError& e) {
      EXPECT_NE(std::string(e.what()).find("the Jacobian of x1 is NaN or infinite at t = 0"),
                std::string::npos)
          << e.what();
      EXPECT_EQ(integrator->stats().steps, 0);
    }
  }
}

}  // namespace
}  // namespace twinblocks::solvers
