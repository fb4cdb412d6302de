// The linearly implicit fixed-step methods ode1be and ros2 (solvers/rosenbrock_integrator.h):
// exact decay on stiff linear problems, order of convergence with the exact Jacobian, with a
// finite-difference one, (ros2, a W-method) with wrong ones and (both) with one kept over
// several steps, the solve restricted to the states the Jacobian touches, and their errors.

#include "solvers/rosenbrock_integrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using ::testing::HasSubstr;
using testing::StepTo;

constexpr double kGamma = 1.0 + 1.0 / std::numbers::sqrt2;

/// Stability function of one step on x' = lambda x, z = h lambda.
double Amplification(const std::string& solver, double z) {
  if (solver == "ode1be") return 1.0 / (1.0 - z);
  // ros2: k1 = z/(1 - gz) x/h, k2 = (z (1 + h k1/x) - 2 h k1/x)/(1 - gz) x/h.
  const double a = z / (1.0 - kGamma * z);
  const double b = (z * (1.0 + a) - 2.0 * a) / (1.0 - kGamma * z);
  return 1.0 + 1.5 * a + 0.5 * b;
}

/// x' = lambda x (one state) beside y' = 1 (not stiff: its row and column of J are zero), with
/// an analytic Jacobian or none (then the solvers difference it). Autonomous, and says so: ros2
/// forms no df/dt for it.
class StiffDecay : public OdeProblem {
 public:
  StiffDecay(double lambda, bool analytic) : lambda_(lambda), analytic_(analytic) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = lambda_ * x[0];
    xdot[1] = 1.0;
    ++evaluations;
    return 0;
  }
  bool has_jacobian() const override { return analytic_; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J.setZero();
    J(0, 0) = lambda_;
    return 0;
  }
  bool is_autonomous() const override { return true; }
  long evaluations = 0;

 private:
  double lambda_;
  bool analytic_;
};

class RosenbrockDecayTest : public ::testing::TestWithParam<std::string> {};

// lambda = -1e6 with h = 1e-3 (h lambda = -1000): every step multiplies x by the method's
// stability function, to rounding, and the non-stiff state advances exactly. An explicit
// method would grow by 1000 per step.
TEST_P(RosenbrockDecayTest, StiffLinearDecayIsTheStabilityFunctionPerStep) {
  for (const bool analytic : {true, false}) {
    StiffDecay problem(-1e6, analytic);
    IntegratorOptions options;
    options.fixed_step = 1e-3;
    auto integrator = MakeIntegrator(GetParam(), &problem, options);
    integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
    const double R = Amplification(GetParam(), -1e3);
    double expected = 1.0;
    for (int n = 1; n <= 5; ++n) {
      integrator->Step(1.0);
      expected *= R;
      // ros2's terms of size 1 cancel to R ~ 1e-3, so rounding shows at 1e-13 relative per
      // step; the finite-difference Jacobian of a linear problem is exact to about 1e-8.
      EXPECT_NEAR(integrator->state()[0], expected, std::abs(expected) * (analytic ? 1e-11 : 1e-6))
          << GetParam() << " step " << n << (analytic ? " analytic" : " differenced");
      EXPECT_NEAR(integrator->state()[1], n * 1e-3, 1e-15);
    }
    // L-stable: one step of h lambda = -1000 damps by about 1/1000 (ode1be) or better.
    EXPECT_LT(std::abs(R), 1.01e-3) << GetParam();
    EXPECT_EQ(integrator->stats().jacobian_evals, 5);
    const long per_step = GetParam() == "ros2" ? 2 : 1;
    EXPECT_EQ(integrator->stats().rhs_evals, 5 * (per_step + (analytic ? 0 : 2)));
    EXPECT_EQ(problem.evaluations, integrator->stats().rhs_evals);
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, RosenbrockDecayTest, ::testing::Values("ode1be", "ros2"));

using testing::NonlinearPairWithJacobian;

// Max-norm error at t = 2 of a run from the exact start with step h; scale < 0: no Jacobian
// (differences).
double PairError(const std::string& solver, double h, double scale, int jacobian_steps = 1) {
  IntegratorOptions options;
  options.fixed_step = h;
  options.jacobian_steps = jacobian_steps;
  testing::NonlinearPair differenced;
  NonlinearPairWithJacobian analytic(scale);
  OdeProblem* problem = scale < 0 ? static_cast<OdeProblem*>(&differenced) : &analytic;
  auto integrator = MakeIntegrator(solver, problem, options);
  integrator->Reset(0.0, testing::NonlinearPair::Exact(0.0));
  StepTo(integrator.get(), 2.0);
  return (integrator->state() - testing::NonlinearPair::Exact(2.0)).cwiseAbs().maxCoeff();
}

struct OrderCase {
  std::string solver;
  int order;
  double scale;  // of the exact Jacobian; < 0: finite differences
  std::string what;
  int jacobian_steps = 1;  // steps one J serves
};

class RosenbrockOrderTest : public ::testing::TestWithParam<OrderCase> {};

// Halving h divides the error by 2^p within 15%, on a nonlinear non-autonomous problem.
TEST_P(RosenbrockOrderTest, HalvingStepDividesErrorByTwoToTheOrder) {
  const OrderCase& c = GetParam();
  const double h = 1e-2;
  const double e1 = PairError(c.solver, h, c.scale, c.jacobian_steps);
  const double e2 = PairError(c.solver, h / 2, c.scale, c.jacobian_steps);
  const double expected = std::pow(2.0, c.order);
  std::printf("[ measure  ] %s (%s) h = %g: error %.3e, h/2: %.3e, ratio %.3f\n", c.solver.c_str(),
              c.what.c_str(), h, e1, e2, e1 / e2);
  EXPECT_GT(e2, 1e-13);
  EXPECT_NEAR(e1 / e2, expected, 0.15 * expected);
}

INSTANTIATE_TEST_SUITE_P(Methods, RosenbrockOrderTest,
                         ::testing::Values(OrderCase{"ode1be", 1, 1.0, "exact_J"},
                                           OrderCase{"ode1be", 1, -1.0, "differenced_J"},
                                           OrderCase{"ros2", 2, 1.0, "exact_J"},
                                           OrderCase{"ros2", 2, -1.0, "differenced_J"},
                                           OrderCase{"ros2", 2, 0.0, "zero_J"},
                                           OrderCase{"ros2", 2, 3.0, "three_times_J"},
                                           // J kept over 5 steps (jacobian_steps): W-methods
                                           OrderCase{"ode1be", 1, 1.0, "J_kept_5_steps", 5},
                                           OrderCase{"ros2", 2, 1.0, "J_kept_5_steps", 5},
                                           OrderCase{"ros2", 2, -1.0, "differenced_J_kept", 5}),
                         [](const auto& info) {
                           return info.param.solver + "_" + info.param.what;
                         });

// x' = A x with eigenvalues -1 and -1e6 and coupled eigenvectors: the fast mode is damped
// out at once, the slow one followed to the methods' order. Exact: x = V exp(L t) V^-1 x0 with
// V = [[1, 1], [1, 0]], V^-1 = [[0, 1], [1, -1]], L = diag(-1, -1e6), so that
// A = V L V^-1 = [[-1e6, 1e6 - 1], [0, -1]].
class StiffCoupled : public OdeProblem {
 public:
  static constexpr double kFast = -1e6, kSlow = -1.0;
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot = A() * x;
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J = A();
    return 0;
  }
  static Eigen::Matrix2d A() {
    Eigen::Matrix2d V, V_inv;
    V << 1, 1, 1, 0;
    V_inv << 0, 1, 1, -1;
    return V * Eigen::Vector2d(kSlow, kFast).asDiagonal() * V_inv;
  }
  static Eigen::Vector2d Exact(double t, const Eigen::Vector2d& x0) {
    Eigen::Matrix2d V, V_inv;
    V << 1, 1, 1, 0;
    V_inv << 0, 1, 1, -1;
    return V * Eigen::Vector2d(std::exp(kSlow * t), std::exp(kFast * t)).asDiagonal() * V_inv * x0;
  }
};

// h = 0.01 (h lambda_fast = -1e4): no explicit method survives one step. Both follow the
// slow mode over [0, 1] to their order: ros2 to 2e-4 (measured 9.8e-5), ode1be to 1e-2
// (3.7e-3).
TEST(RosenbrockTest, StiffCoupledLinearSystemFollowsTheSlowMode) {
  for (const auto& [solver, tolerance] :
       {std::pair<const char*, double>{"ode1be", 1e-2}, {"ros2", 2e-4}}) {
    StiffCoupled problem;
    IntegratorOptions options;
    options.fixed_step = 0.01;
    auto integrator = MakeIntegrator(solver, &problem, options);
    const Eigen::Vector2d x0(1.0, 2.0);
    integrator->Reset(0.0, x0);
    double max_error = 0.0;
    for (int k = 1; k <= 10; ++k) {
      StepTo(integrator.get(), 0.1 * k);
      max_error =
          std::max(max_error,
                   (integrator->state() - StiffCoupled::Exact(0.1 * k, x0)).cwiseAbs().maxCoeff());
    }
    std::printf("[ measure  ] %s stiff coupled system, h = 0.01: max error %.3e\n", solver,
                max_error);
    EXPECT_LT(max_error, tolerance) << solver;
  }
}

/// A problem whose I - gamma h J is singular at the given step: J = 1 / (gamma h).
class SingularIteration : public OdeProblem {
 public:
  explicit SingularIteration(double j) : j_(j) {}
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = j_ * x[0];
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    if (fail) return -1;
    J(0, 0) = j_;
    return 0;
  }
  const char* last_error() const override { return fail ? "no Jacobian here" : ""; }
  bool fail = false;

 private:
  double j_;
};

TEST(RosenbrockTest, SingularIterationMatrixIsASolverErrorWithTheTime) {
  IntegratorOptions options;
  options.fixed_step = 0.1;
  SingularIteration problem(1.0 / 0.1);  // ode1be's I - h J = 0
  auto integrator = MakeIntegrator("ode1be", &problem, options);
  integrator->Reset(0.5, Eigen::VectorXd::Constant(1, 1.0));
  try {
    integrator->Step(1.0);
    FAIL() << "expected a SolverError";
  } catch (const SolverError& e) {
    EXPECT_THAT(e.what(), HasSubstr("singular"));
    EXPECT_THAT(e.what(), HasSubstr("t = 0.59999"));
    EXPECT_EQ(e.time(), 0.5);
  }
  EXPECT_EQ(integrator->time(), 0.5);
}

TEST(RosenbrockTest, FailedJacobianIsASolverErrorWithTheProblemsMessage) {
  IntegratorOptions options;
  options.fixed_step = 0.1;
  SingularIteration problem(-1.0);
  problem.fail = true;
  auto integrator = MakeIntegrator("ros2", &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Constant(1, 1.0));
  try {
    integrator->Step(1.0);
    FAIL() << "expected a SolverError";
  } catch (const SolverError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ros2: the Jacobian evaluation failed"));
    EXPECT_THAT(e.what(), HasSubstr("no Jacobian here"));
  }
  EXPECT_EQ(integrator->state()[0], 1.0);
}

TEST(RosenbrockTest, NonPositiveStepIsRejectedAtConstruction) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.fixed_step = 0.0;
  for (const char* solver : {"ode1be", "ros2"}) {
    EXPECT_THROW(MakeIntegrator(solver, &problem, options), std::invalid_argument) << solver;
  }
}

// A snapshot taken mid-run and restored repeats the following steps bitwise.
TEST(RosenbrockTest, RestoredSnapshotRepeatsTheStepsBitwise) {
  NonlinearPairWithJacobian problem(1.0);
  IntegratorOptions options;
  options.fixed_step = 0.03;
  auto integrator = MakeIntegrator("ros2", &problem, options);
  integrator->Reset(0.0, testing::NonlinearPair::Exact(0.0));
  StepTo(integrator.get(), 0.5);
  IntegratorSnapshot snapshot;
  integrator->SaveState(&snapshot);
  StepTo(integrator.get(), 1.0);
  const Eigen::VectorXd first = integrator->state();
  integrator->RestoreState(snapshot);
  StepTo(integrator.get(), 1.0);
  EXPECT_EQ(integrator->state(), first);
}

// jacobian_steps = 3 on x' = lambda x: the kept J is the exact one, so every step is the
// stability function's, as with a J formed each step (bitwise: the factors are the same), for
// a third of the Jacobians and factorizations.
TEST_P(RosenbrockDecayTest, KeptJacobianOfALinearProblemGivesTheSameSteps) {
  StiffDecay every(-1e6, true), kept(-1e6, true);
  IntegratorOptions options;
  options.fixed_step = 1e-3;
  auto fresh = MakeIntegrator(GetParam(), &every, options);
  options.jacobian_steps = 3;
  auto reused = MakeIntegrator(GetParam(), &kept, options);
  fresh->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  reused->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
  for (int n = 1; n <= 7; ++n) {
    fresh->Step(1.0);
    reused->Step(1.0);
    EXPECT_EQ(reused->state(), fresh->state()) << GetParam() << " step " << n;
  }
  EXPECT_EQ(fresh->stats().jacobian_evals, 7);
  EXPECT_EQ(reused->stats().jacobian_evals, 3);  // steps 1, 4, 7
}

/// x' = a(t) x with a = 16 before t = 0.3 and 0 after (J = a(t), exact).
class SwitchedRate : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = Rate(t) * x[0];
    return 0;
  }
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J(0, 0) = Rate(t);
    return 0;
  }
  static double Rate(double t) { return t < 0.3 ? 16.0 : 0.0; }
};

// ode1be at h = 1/8 keeps the J = 16 of its first step; the short step of 1/16 that lands on
// t = 0.3125 would factor I - J/16 = 0 with it. The solver forms J anew there (J = 0) and
// takes the step, rather than fail on a stale matrix.
TEST(RosenbrockTest, KeptJacobianWhoseIterationMatrixIsSingularIsFormedAnew) {
  SwitchedRate problem;
  IntegratorOptions options;
  options.fixed_step = 0.125;
  options.jacobian_steps = 5;
  auto integrator = MakeIntegrator("ode1be", &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Constant(1, 1.0));
  integrator->Step(1.0);
  integrator->Step(1.0);
  EXPECT_EQ(integrator->stats().jacobian_evals, 1);
  const double before = integrator->state()[0];
  integrator->Step(0.3125);
  EXPECT_EQ(integrator->time(), 0.3125);
  EXPECT_EQ(integrator->stats().jacobian_evals, 2);
  // J = 0 and f = 0 at t = 0.3125: the step changes nothing.
  EXPECT_EQ(integrator->state()[0], before);

  // With J formed every step the same short step is fine from the start (J = 0 there).
  options.jacobian_steps = 1;
  auto fresh = MakeIntegrator("ode1be", &problem, options);
  fresh->Reset(0.0, Eigen::VectorXd::Constant(1, 1.0));
  fresh->Step(1.0);
  fresh->Step(1.0);
  fresh->Step(0.3125);
  EXPECT_EQ(fresh->state()[0], before);
}

// A snapshot taken while a kept J is two steps old restores it: the following steps, some on
// the kept J and some on new ones, repeat bitwise.
TEST(RosenbrockTest, RestoredSnapshotWithAKeptJacobianRepeatsTheStepsBitwise) {
  for (const char* solver : {"ode1be", "ros2"}) {
    NonlinearPairWithJacobian problem(1.0);
    IntegratorOptions options;
    options.fixed_step = 0.03;
    options.jacobian_steps = 4;
    auto integrator = MakeIntegrator(solver, &problem, options);
    integrator->Reset(0.0, testing::NonlinearPair::Exact(0.0));
    for (int n = 0; n < 6; ++n) integrator->Step(1.0);
    IntegratorSnapshot snapshot;
    integrator->SaveState(&snapshot);
    const long jacobians = integrator->stats().jacobian_evals;
    StepTo(integrator.get(), 1.0);
    const Eigen::VectorXd first = integrator->state();
    const long jacobians_after = integrator->stats().jacobian_evals - jacobians;

    auto restored = MakeIntegrator(solver, &problem, options);
    restored->RestoreState(snapshot);
    StepTo(restored.get(), 1.0);
    EXPECT_EQ(restored->state(), first) << solver;
    EXPECT_EQ(restored->stats().jacobian_evals, jacobians_after) << solver;
  }
}

// ros2 on Prothero and Robinson's problem (stiff, driven through t), from x(0) = 2 to t = 1,
// the exact J differenced. With T = df/dt (formed with J) the error is second order: 1.9e-5 at
// h = 1e-2, 4.1 times less at half the step. Without it, first order and 300 times larger
// (5.9e-3 at 1e-2), as Verwer et al. note for Rosenbrock methods without their f_t terms.
TEST(RosenbrockTest, Ros2FormsDfDtForAProblemDrivenThroughTime) {
  auto error = [](OdeProblem* problem, double h) {
    IntegratorOptions options;
    options.fixed_step = h;
    auto integrator = MakeIntegrator("ros2", problem, options);
    integrator->Reset(0.0, Eigen::VectorXd::Constant(1, 2.0));
    testing::StepTo(integrator.get(), 1.0);
    return std::abs(integrator->state()[0] - testing::ProtheroRobinson::Exact(1.0, 2.0));
  };
  testing::ProtheroRobinson with_t;
  testing::ProtheroRobinsonWithoutT without_t;
  const double e1 = error(&with_t, 1e-2), e2 = error(&with_t, 5e-3);
  const double e_without = error(&without_t, 1e-2);
  std::printf(
      "[ measure  ] ros2 Prothero-Robinson h = 0.01: error %.3e with df/dt (h/2: %.3e, ratio "
      "%.2f), %.3e without\n",
      e1, e2, e1 / e2, e_without);
  EXPECT_LT(e1, 1e-4);
  EXPECT_NEAR(e1 / e2, 4.0, 0.6);
  EXPECT_GT(e_without, 100.0 * e1);
}

}  // namespace
}  // namespace twinblocks::solvers
