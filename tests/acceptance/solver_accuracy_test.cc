// Accuracy: a mass-spring-damper built from Integrator/Gain/Sum blocks matches its closed
// form; each fixed-step solver shows its order.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

// examples/mass_spring_damper.xml: m = 1, c = 0.4, k = 4, x(0) = 1, v(0) = 0.
double ExactPosition(double t) {
  const double m = 1.0, c = 0.4, k = 4.0;
  const double wn = std::sqrt(k / m);
  const double zeta = c / (2.0 * std::sqrt(k * m));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  return std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta * wn / wd * std::sin(wd * t));
}

TEST(SolverAccuracy, Ode45MatchesClosedFormTo1e9) {
  const RunOutput out = RunModelFile("examples/mass_spring_damper.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> x = Column(out.recording, "x");
  ASSERT_GT(t.size(), 10u);
  EXPECT_EQ(t.back(), 10.0);
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i)
    worst = std::max(worst, std::abs(x[i] - ExactPosition(t[i])));
  RecordProperty("max_error", Figure(worst));
  EXPECT_LT(worst, 1e-9) << "largest deviation from the closed form over [0, 10] s";
}

struct OrderCase {
  const char* solver;
  int order;
  double step;  // s: small enough for the asymptotic regime, large enough to stay off roundoff
};

class SolverAccuracyFixedStepOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(SolverAccuracyFixedStepOrder, HalvingTheStepDividesTheErrorByTwoToTheOrder) {
  const OrderCase& c = GetParam();
  auto error_with_step = [&](double h) {
    const RunOutput out =
        RunModelFile("examples/mass_spring_damper.xml", [&](graph::SimulationSettingsValues* s) {
          s->solver = c.solver;
          s->step = h;
          s->t_end = 2.0;
          s->output_interval.reset();
        });
    EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> x = Column(out.recording, "x");
    EXPECT_EQ(out.recording.time(out.recording.num_rows() - 1), 2.0);
    return std::abs(x.back() - ExactPosition(2.0));
  };
  const double e1 = error_with_step(c.step);
  const double e2 = error_with_step(c.step / 2);
  const double ratio = e1 / e2;
  const double expected = std::pow(2.0, c.order);
  RecordProperty("ratio", Figure(ratio));
  EXPECT_NEAR(ratio / expected, 1.0, 0.15)
      << c.solver << ": error " << e1 << " at h = " << c.step << ", " << e2 << " at h/2";
}

INSTANTIATE_TEST_SUITE_P(AllFixedStepSolvers, SolverAccuracyFixedStepOrder,
                         ::testing::Values(OrderCase{"ode1", 1, 1e-3}, OrderCase{"ode2", 2, 1e-3},
                                           OrderCase{"ode3", 3, 4e-3}, OrderCase{"ode4", 4, 1e-2},
                                           OrderCase{"ode5", 5, 2e-2}),
                         [](const auto& info) { return std::string(info.param.solver); });

}  // namespace
}  // namespace twinblocks::testing
