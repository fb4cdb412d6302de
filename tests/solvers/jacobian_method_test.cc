// IntegratorOptions::jacobian_method: where the solvers that use a Jacobian get it (Simulink's
// "Solver Jacobian method"), on a stiff system whose Jacobian is known exactly.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::StepTo;

/// Twenty Prothero-Robinson equations x_i' = l_i (x_i - cos t) - sin t, with l_i from -10 to
/// -1e4: x_i = cos t + (x_i(0) - 1) e^(l_i t). J = diag(l_i), which the problem gives and
/// counts; differences cost an evaluation of f per state.
class StiffDiagonal : public OdeProblem {
 public:
  static constexpr int kStates = 20;
  explicit StiffDiagonal(bool gives_jacobian = true) : gives_jacobian_(gives_jacobian) {}
  int num_states() const override { return kStates; }
  static double Lambda(int i) { return -10.0 * std::pow(1000.0, i / (kStates - 1.0)); }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    for (int i = 0; i < kStates; ++i) xdot[i] = Lambda(i) * (x[i] - std::cos(t)) - std::sin(t);
    return 0;
  }
  bool has_jacobian() const override { return gives_jacobian_; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    ++jacobian_calls;
    J.setZero();
    for (int i = 0; i < kStates; ++i) J(i, i) = Lambda(i);
    return 0;
  }
  static double Exact(int i, double t) {
    return std::cos(t) + (2.0 - 1.0) * std::exp(Lambda(i) * t);
  }

  long jacobian_calls = 0;

 private:
  bool gives_jacobian_;
};

struct Outcome {
  double max_error = 0.0;
  long jacobian_calls = 0;
  IntegratorStats stats;
};

constexpr double kEnd = 1.0;  // s

Outcome Integrate(const std::string& solver, JacobianMethod method) {
  StiffDiagonal problem;
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  options.fixed_step = 1e-4;  // ros2 and ode1be
  options.jacobian_method = method;
  auto integrator = MakeIntegrator(solver, &problem, options);
  integrator->Reset(0.0, Eigen::VectorXd::Constant(StiffDiagonal::kStates, 2.0));
  StepTo(integrator.get(), kEnd);
  Outcome out;
  for (int i = 0; i < StiffDiagonal::kStates; ++i) {
    out.max_error =
        std::max(out.max_error, std::abs(integrator->state()[i] - StiffDiagonal::Exact(i, kEnd)));
  }
  out.jacobian_calls = problem.jacobian_calls;
  out.stats = integrator->stats();
  return out;
}

// ida takes an ODE as the residual x' - f(t, x); its iteration matrix is then cj I - J.
const std::vector<std::string> kJacobianSolvers = {
    "ode23s", "ros2", "ode1be", "cvode-bdf", "cvode-adams", "arkode-dirk", "ida"};

// Bars: the variable-step solvers at rtol 1e-6 end within 2e-5 of cos(1) (most within 1e-6);
// ode1be at 1e-4 s is first order, its error about h/2 |x''| = 5e-5.
double Bar(const std::string& solver) { return solver == "ode1be" ? 1e-4 : 2e-5; }

TEST(JacobianMethod, ProblemJacobianServesEverySolverThatUsesOne) {
  for (const std::string& solver : kJacobianSolvers) {
    SCOPED_TRACE(solver);
    const Outcome own = Integrate(solver, JacobianMethod::kProblem);
    EXPECT_GT(own.jacobian_calls, 0);
    EXPECT_EQ(own.jacobian_calls, own.stats.jacobian_evals);
    EXPECT_LT(own.max_error, Bar(solver));
  }
}

TEST(JacobianMethod, PerturbationNeverAsksTheProblem) {
  for (const std::string& solver : kJacobianSolvers) {
    SCOPED_TRACE(solver);
    const Outcome differences = Integrate(solver, JacobianMethod::kPerturbation);
    EXPECT_EQ(differences.jacobian_calls, 0);
    EXPECT_GT(differences.stats.jacobian_evals, 0);
    EXPECT_LT(differences.max_error, Bar(solver));
  }
}

TEST(JacobianMethod, ProblemJacobianSavesAnEvaluationPerState) {
  // Differences cost nx = 20 evaluations of f per Jacobian; the problem's own none (ode23s
  // evaluates at the point already), or one that puts the problem there (SUNDIALS). The two
  // runs take the same steps, their Jacobians being equal to O(sqrt(eps)). (Not cvode-adams:
  // on a stiff problem its steps follow stability, and its path moves with J's last digits.)
  for (const std::string solver : {"ode23s", "cvode-bdf", "arkode-dirk", "ida"}) {
    SCOPED_TRACE(solver);
    const Outcome own = Integrate(solver, JacobianMethod::kProblem);
    const Outcome differences = Integrate(solver, JacobianMethod::kPerturbation);
    ASSERT_EQ(own.stats.steps, differences.stats.steps);
    ASSERT_EQ(own.stats.jacobian_evals, differences.stats.jacobian_evals);
    const long saved_per_jacobian = StiffDiagonal::kStates - (solver == "ode23s" ? 0 : 1);
    EXPECT_EQ(differences.stats.rhs_evals - own.stats.rhs_evals,
              saved_per_jacobian * own.stats.jacobian_evals);
  }
}

TEST(JacobianMethod, AutoKeepsEachSolversOwnWay) {
  // ode23s, ros2 and ode1be take the problem's Jacobian; CVODE, ARKODE and IDA differences.
  for (const std::string& solver : kJacobianSolvers) {
    SCOPED_TRACE(solver);
    const Outcome automatic = Integrate(solver, JacobianMethod::kAuto);
    const bool rosenbrock = solver == "ode23s" || solver == "ros2" || solver == "ode1be";
    EXPECT_EQ(automatic.jacobian_calls > 0, rosenbrock);
  }
}

TEST(JacobianMethod, RefusedWhereNoJacobianIsUsedOrNoneIsGiven) {
  StiffDiagonal problem;
  IntegratorOptions options;
  options.jacobian_method = JacobianMethod::kPerturbation;
  for (const char* solver : {"ode45", "ode4", "arkode-erk"}) {
    try {
      MakeIntegrator(solver, &problem, options);
      ADD_FAILURE() << solver << " took jacobian_method = perturbation";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("is for the solvers that use a Jacobian"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string(solver) + " forms none"), std::string::npos)
          << e.what();
    }
  }
  testing::CartesianPendulum dae(1.0);
  EXPECT_NO_THROW(MakeDaeIntegrator(&dae, options));  // differences: IDA's own way
  StiffDiagonal without(/*gives_jacobian=*/false);
  options.jacobian_method = JacobianMethod::kProblem;
  try {
    MakeDaeIntegrator(&dae, options);
    ADD_FAILURE() << "ida took jacobian_method = problem for a DAE without a Jacobian";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the problem gives no Jacobian of its own"),
              std::string::npos)
        << e.what();
  }
  for (const std::string& solver : kJacobianSolvers) {
    try {
      MakeIntegrator(solver, &without, options);
      ADD_FAILURE() << solver << " took jacobian_method = problem without a Jacobian";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("the problem gives no Jacobian of its own"),
                std::string::npos)
          << e.what();
    }
  }
}

/// The Cartesian pendulum of test_problems.h (index 1) with its iteration matrix
/// dF/dy + cj dF/dy', worked out by hand from its five residuals.
class CartesianPendulumWithJacobian : public testing::CartesianPendulum {
 public:
  explicit CartesianPendulumWithJacobian(double gravity)
      : CartesianPendulum(gravity), gravity_(gravity) {}
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp, double cj,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    ++jacobian_calls;
    const double px = y[0], py = y[1], vx = y[2], vy = y[3], lambda = y[4];
    J.setZero();
    J(0, 0) = cj;  // r0 = x' - vx
    J(0, 2) = -1.0;
    J(1, 1) = cj;  // r1 = y' - vy
    J(1, 3) = -1.0;
    J(2, 2) = cj;  // r2 = vx' + lambda x
    J(2, 0) = lambda;
    J(2, 4) = px;
    J(3, 3) = cj;  // r3 = vy' + lambda y + g
    J(3, 1) = lambda;
    J(3, 4) = py;
    J(4, 0) = -2.0 * lambda * px;  // r4 = vx^2 + vy^2 - lambda (x^2 + y^2) - g y
    J(4, 1) = -2.0 * lambda * py - gravity_;
    J(4, 2) = 2.0 * vx;
    J(4, 3) = 2.0 * vy;
    J(4, 4) = -(px * px + py * py);
    return 0;
  }
  long jacobian_calls = 0;

 private:
  double gravity_;
};

// IDA on a true DAE with the problem's own iteration matrix: the same pendulum as with its
// differences, for an evaluation of the residual per Jacobian instead of five.
TEST(JacobianMethod, IdaTakesADaesOwnIterationMatrix) {
  constexpr double kGravity = 9.81, kTheta0 = 0.5, kEnd = 2.0;
  Eigen::VectorXd y0(5);
  y0 << std::sin(kTheta0), -std::cos(kTheta0), 0.0, 0.0, kGravity * std::cos(kTheta0);
  Eigen::VectorXd end[2];
  IntegratorStats stats[2];
  long calls[2];
  for (int k = 0; k < 2; ++k) {
    CartesianPendulumWithJacobian dae(kGravity);
    IntegratorOptions options;
    options.rtol = 1e-8;
    options.atol = 1e-10;
    options.locate_zero_crossings = false;
    options.jacobian_method = k == 0 ? JacobianMethod::kProblem : JacobianMethod::kPerturbation;
    auto ida = MakeDaeIntegrator(&dae, options);
    ida->Reset(0.0, y0);
    StepTo(ida.get(), kEnd);
    end[k] = ida->state();
    stats[k] = ida->stats();
    calls[k] = dae.jacobian_calls;
  }
  EXPECT_EQ(calls[0], stats[0].jacobian_evals);
  EXPECT_GT(calls[0], 0);
  EXPECT_EQ(calls[1], 0);
  // Both runs end within 1e-6 of each other (measured: 1e-14), the pendulum's length within
  // 1e-5 of 1 m (the index-1 form lets it drift).
  EXPECT_LT((end[0] - end[1]).head(4).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_NEAR(end[0].head(2).norm(), 1.0, 1e-5);
  // The same steps (the two matrices agree to O(sqrt(eps))), and per Jacobian one residual
  // evaluation (the problem puts itself there) against five.
  ASSERT_EQ(stats[0].steps, stats[1].steps);
  ASSERT_EQ(stats[0].jacobian_evals, stats[1].jacobian_evals);
  EXPECT_EQ(stats[1].rhs_evals - stats[0].rhs_evals, 4 * stats[0].jacobian_evals);
}

}  // namespace
}  // namespace twinblocks::solvers
