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

const std::vector<std::string> kJacobianSolvers = {"ode23s",    "ros2",        "ode1be",
                                                   "cvode-bdf", "cvode-adams", "arkode-dirk"};

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
  for (const std::string& solver : {"ode23s", "cvode-bdf", "arkode-dirk"}) {
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
  // ode23s, ros2 and ode1be take the problem's Jacobian; CVODE and ARKODE differences.
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
  try {
    MakeDaeIntegrator(&dae, options);
    ADD_FAILURE() << "ida took jacobian_method = perturbation";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ida forms its own by differences"), std::string::npos)
        << e.what();
  }
  StiffDiagonal without(/*gives_jacobian=*/false);
  options.jacobian_method = JacobianMethod::kProblem;
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

}  // namespace
}  // namespace twinblocks::solvers
