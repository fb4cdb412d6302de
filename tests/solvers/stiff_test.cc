// Van der Pol's oscillator at mu = 1000: stiff, where BDF should beat explicit RK by far.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using testing::StepTo;
using testing::VanDerPol;

constexpr double kVanDerPolMu = 1000.0;
constexpr double kVanDerPolEnd = 3000.0;  // s, almost two periods ((3 - 2 ln 2) mu ~ 1614 s each)

struct RunResult {
  Eigen::Vector2d x;
  IntegratorStats stats;
  double seconds;
};

RunResult Integrate(const std::string& solver, double rtol, double atol, double t_end,
                    std::optional<int> jacobian_steps = std::nullopt) {
  VanDerPol problem(kVanDerPolMu);
  IntegratorOptions options;
  options.rtol = rtol;
  options.atol = atol;
  options.jacobian_steps = jacobian_steps;
  auto integrator = MakeIntegrator(solver, &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(2.0, 0.0));
  const auto start = std::chrono::steady_clock::now();
  StepTo(integrator.get(), t_end);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[ measure  ] %-11s rtol %g atol %g jacobian_steps %d to t = %g: y = (%.10f, %.10e), %ld "
      "steps, "
      "%ld rejected, %ld f evals, %ld Jacobians, %.3f s\n",
      solver.c_str(), rtol, atol, jacobian_steps.value_or(0), t_end, integrator->state()[0],
      integrator->state()[1], integrator->stats().steps, integrator->stats().rejected_steps,
      integrator->stats().rhs_evals, integrator->stats().jacobian_evals, seconds);
  return {integrator->state(), integrator->stats(), seconds};
}

// cvode-bdf at rtol 1e-6 against a reference from a different method, ARKODE's DIRK at
// rtol = atol = 1e-10 (itself checked against cvode-bdf at 1e-10 to 1e-6). At t = 3000 the
// solution is on a slow branch (y1 ~ -1.51, y2 ~ 1.2e-3), where a shift of the last jump by
// dt moves y1 by about 1.2e-3 dt. Measured: with atol 1e-6, y1 is off by 3.9e-4 (the jumps
// come 0.3 s early); atol 1e-10, used here, gives 2.1e-5 for 1.8x the steps.
TEST(StiffTest, VanDerPolMu1000CvodeBdfMatchesReference) {
  const RunResult reference = Integrate("arkode-dirk", 1e-10, 1e-10, kVanDerPolEnd);
  const RunResult check = Integrate("cvode-bdf", 1e-10, 1e-10, kVanDerPolEnd);
  EXPECT_LT((reference.x - check.x).cwiseAbs().maxCoeff(), 1e-6);

  const RunResult bdf = Integrate("cvode-bdf", 1e-6, 1e-10, kVanDerPolEnd);
  EXPECT_LT((bdf.x - reference.x).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_LT(bdf.stats.steps, 5000);
  EXPECT_GT(bdf.stats.jacobian_evals, 0);
}

// jacobian_steps bounds the age of CVODE's and ARKODE's Jacobian, as it does ode23s's. Unset,
// SUNDIALS keeps one Jacobian over up to 51 steps; with 1 they form one at every step (each
// step sets up its Newton matrix), with 10 at least every tenth. The answer stays within the
// tolerance of the reference either way: the Jacobian only drives the Newton iteration.
TEST(StiffTest, JacobianStepsBoundsTheAgeOfSundialsJacobians) {
  const RunResult reference = Integrate("arkode-dirk", 1e-10, 1e-10, kVanDerPolEnd);
  for (const std::string solver : {"cvode-bdf", "arkode-dirk"}) {
    const RunResult own = Integrate(solver, 1e-6, 1e-10, kVanDerPolEnd);
    const RunResult every = Integrate(solver, 1e-6, 1e-10, kVanDerPolEnd, 1);
    const RunResult tenth = Integrate(solver, 1e-6, 1e-10, kVanDerPolEnd, 10);
    EXPECT_LT(own.stats.jacobian_evals, own.stats.steps / 5) << solver;
    EXPECT_GE(every.stats.jacobian_evals, every.stats.steps) << solver;
    EXPECT_GE(tenth.stats.jacobian_evals, tenth.stats.steps / 10) << solver;
    EXPECT_LT(tenth.stats.jacobian_evals, tenth.stats.steps / 2) << solver;
    for (const RunResult* r : {&own, &every, &tenth}) {
      EXPECT_LT((r->x - reference.x).cwiseAbs().maxCoeff(), 1e-4) << solver;
    }
  }
}

// ode45 is stability-bound on the slow branches (|lambda| ~ 3 mu, so h ~ 1e-3 s): over
// [0, 3000] at rtol 1e-6 it needs about 1.7e6 steps against about 1.3e3 for cvode-bdf. The
// whole window is cheap enough here (0.27 s in Release: the right-hand side is trivial); a
// step count ratio above 100 is required.
TEST(StiffTest, VanDerPolMu1000Ode45NeedsOrdersOfMagnitudeMoreSteps) {
  const RunResult bdf = Integrate("cvode-bdf", 1e-6, 1e-6, kVanDerPolEnd);
  const RunResult rk = Integrate("ode45", 1e-6, 1e-6, kVanDerPolEnd);
  const double ratio = static_cast<double>(rk.stats.steps) / bdf.stats.steps;
  std::printf("[ measure  ] ode45 / cvode-bdf steps over [0, 3000] at rtol 1e-6: %.0f\n", ratio);
  EXPECT_GT(ratio, 100.0);
  // Still accurate, just slow: the step size is set by stability, not by the error test.
  EXPECT_LT(rk.stats.rejected_steps, rk.stats.steps / 100);
  EXPECT_LT((rk.x - bdf.x).cwiseAbs().maxCoeff(), 1e-3);
}

}  // namespace
}  // namespace twinblocks::solvers
