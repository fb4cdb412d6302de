#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "solvers/integrator.h"
#include "tests/solvers/test_problems.h"

namespace twinblocks::solvers {
namespace {

using ::testing::HasSubstr;

TEST(IntegratorFactoryTest, NamesAreTheDocumentedOnesInOrder) {
  const std::vector<std::string> expected = {
      "ode1",  "ode2",  "ode3",   "ode4",      "ode5",        "ode1be",     "ros2",        "avf",
      "ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams", "arkode-erk", "arkode-dirk", "ida"};
  EXPECT_EQ(IntegratorNames(), expected);
}

TEST(IntegratorFactoryTest, EveryNameMakesAnIntegratorOfThatName) {
  testing::HarmonicOscillator problem;
  for (const std::string& name : IntegratorNames()) {
    std::unique_ptr<Integrator> integrator = MakeIntegrator(name, &problem, {});
    ASSERT_NE(integrator, nullptr) << name;
    EXPECT_EQ(integrator->name(), name);
    // ode1 .. ode5, ode1be, ros2, avf
    const bool fixed_step = name.size() == 4 || name == "ode1be" || name == "avf";
    EXPECT_EQ(integrator->is_fixed_step(), fixed_step) << name;
    EXPECT_FALSE(IntegratorDescription(name).empty()) << name;
  }
}

TEST(IntegratorFactoryTest, UnknownNameListsTheValidOnes) {
  testing::HarmonicOscillator problem;
  try {
    MakeIntegrator("ode99", &problem, {});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown solver 'ode99'"));
    EXPECT_THAT(e.what(),
                HasSubstr("valid solvers: ode1 ode2 ode3 ode4 ode5 ode1be ros2 avf ode23 "
                          "ode45 ode23s cvode-bdf cvode-adams arkode-erk arkode-dirk ida"));
  }
  EXPECT_THROW(IntegratorDescription("rk45"), std::invalid_argument);
}

TEST(IntegratorFactoryTest, StepBeforeResetIsALogicError) {
  testing::HarmonicOscillator problem;
  for (const std::string& name : IntegratorNames()) {
    std::unique_ptr<Integrator> integrator = MakeIntegrator(name, &problem, {});
    EXPECT_THROW(integrator->Step(1.0), std::logic_error) << name;
  }
}

TEST(IntegratorFactoryTest, WrongStateSizeOnResetThrows) {
  testing::HarmonicOscillator problem;
  for (const std::string& name : IntegratorNames()) {
    std::unique_ptr<Integrator> integrator = MakeIntegrator(name, &problem, {});
    EXPECT_THROW(integrator->Reset(0.0, Eigen::VectorXd::Zero(3)), std::invalid_argument) << name;
  }
}

TEST(IntegratorFactoryTest, FixedStepMustBePositive) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.fixed_step = 0.0;
  EXPECT_THROW(MakeIntegrator("ode4", &problem, options), std::invalid_argument);
}

// jacobian_steps is taken by the solvers that use a Jacobian and refused by the others, which
// would ignore it; the unknown-name message comes first.
// Per-state absolute tolerances: one per state, each a positive number, for the solvers with
// an error test; the fixed-step ones have none and take any.
TEST(IntegratorFactoryTest, StateAbsoluteTolerancesAreOnePositiveNumberPerState) {
  testing::HarmonicOscillator problem;  // two states
  for (const std::string name : {"ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams",
                                 "arkode-erk", "arkode-dirk", "ida"}) {
    IntegratorOptions options;
    options.state_atol = Eigen::VectorXd::Constant(3, 1e-8);
    try {
      MakeIntegrator(name, &problem, options);
      ADD_FAILURE() << name << ": three tolerances for two states";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr(name + ": state_atol has 3 entries, the problem has 2"));
    }
    for (double bad : {0.0, -1e-9, std::numeric_limits<double>::quiet_NaN()}) {
      options.state_atol = Eigen::Vector2d(1e-8, bad);
      try {
        MakeIntegrator(name, &problem, options);
        ADD_FAILURE() << name << ": tolerance " << bad;
      } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("the absolute tolerance of state 1 must be a positive"));
      }
    }
    options.state_atol = Eigen::Vector2d(1e-8, 1e-10);
    std::unique_ptr<Integrator> integrator = MakeIntegrator(name, &problem, options);
    integrator->Reset(0.0, Eigen::Vector2d(1.0, 0.0));
    double t = 0.0;
    while (t < 1.0) t = integrator->Step(1.0).t;
    const Eigen::Vector2d exact = problem.Exact(1.0, Eigen::Vector2d(1.0, 0.0));
    EXPECT_LT((integrator->state() - exact).norm(), 1e-2) << name;
  }
  IntegratorOptions fixed;
  fixed.state_atol = Eigen::VectorXd::Constant(5, -1.0);
  EXPECT_NO_THROW(MakeIntegrator("ode4", &problem, fixed));
}

TEST(IntegratorFactoryTest, JacobianStepsIsForTheSolversThatUseAJacobian) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.jacobian_steps = 2;
  const std::vector<std::string> taking = {"ode1be",    "ros2",        "avf",        "ode23s",
                                           "cvode-bdf", "cvode-adams", "arkode-dirk"};
  for (const std::string& name : IntegratorNames()) {
    if (std::find(taking.begin(), taking.end(), name) != taking.end()) {
      EXPECT_NO_THROW(MakeIntegrator(name, &problem, options)) << name;
      continue;
    }
    try {
      MakeIntegrator(name, &problem, options);
      ADD_FAILURE() << name << " took jacobian_steps = 2";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("jacobian_steps = 2 is for the solvers that use a Jacobian "
                                      "(ode1be, ros2, avf, ode23s, cvode-bdf, cvode-adams, "
                                      "arkode-dirk)"));
      EXPECT_THAT(e.what(),
                  HasSubstr("; " + name + (name == "ida" ? " re-forms its own" : " forms none")));
    }
  }
  try {
    MakeIntegrator("ode99", &problem, options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown solver 'ode99'"));
  }
  options.jacobian_steps = 0;
  for (const std::string& name : taking) {
    try {
      MakeIntegrator(name, &problem, options);
      ADD_FAILURE() << name << " took jacobian_steps = 0";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("jacobian_steps = 0: expected a whole number of steps >= 1"))
          << name;
    }
  }
}

}  // namespace
}  // namespace twinblocks::solvers
