// Multirate: a DiscretePID at Ts = 1e-3 controlling a continuous first-order plant, with a
// ZeroOrderHold at 1e-2 on a monitoring path, matches a hand-computed reference for the first
// 10 samples.
#include <gtest/gtest.h>

#include <cmath>

#include "solvers/integrator.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(Multirate, DiscretePidMatchesHandComputedSamples) {
  const RunOutput out = RunModelFile("examples/multirate_pid.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // examples/multirate_pid.xml: tau = 0.05, Ts = 1e-3, Kp = 2, Ki = 10, Kd = 0.001, r = 1.
  const double tau = 0.05, Ts = 1e-3, Kp = 2, Ki = 10, Kd = 0.001, r = 1.0;
  // Between samples the plant sees a constant u: x(t + Ts) = u + (x - u) exp(-Ts / tau).
  double x = 0.0, integral = 0.0, e_prev = 0.0;
  std::vector<double> u_ref, x_ref;
  for (int k = 0; k < 10; ++k) {
    const double e = r - x;
    const double u = Kp * e + integral + Kd * (e - e_prev) / Ts;
    u_ref.push_back(u);
    x_ref.push_back(x);
    integral += Ki * Ts * e;
    e_prev = e;
    x = u + (x - u) * std::exp(-Ts / tau);
  }
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> u = Column(out.recording, "u");
  const std::vector<double> xs = Column(out.recording, "x");
  const std::vector<double> monitor = Column(out.recording, "x_monitor");
  int k = 0;
  for (size_t i = 0; i < t.size() && k < 10; ++i) {
    // The row at a sample hit holds the outputs computed at that hit.
    if (t[i] != k * Ts) continue;
    EXPECT_NEAR(u[i], u_ref[k], 1e-9) << "sample " << k;
    EXPECT_NEAR(xs[i], x_ref[k], 1e-10) << "sample " << k;
    ++k;
  }
  EXPECT_EQ(k, 10) << "not every sample time was a row";
  // The monitor holds x sampled every 1e-2 s.
  for (size_t i = 0; i < t.size(); ++i) {
    const double held_at = std::floor(t[i] / 1e-2 + 1e-9) * 1e-2;
    for (size_t j = 0; j < t.size(); ++j) {
      if (t[j] == held_at && t[i] < 0.1) {
        EXPECT_DOUBLE_EQ(monitor[i], xs[j]) << "t = " << t[i];
      }
    }
  }
}

}  // namespace
}  // namespace twinblocks::testing

namespace twinblocks::testing {
namespace {

// Every solver lands exactly on every sample hit of both rates (1e-3 s and 1e-2 s): each
// k * Ts is a row time, bitwise, and the PID output changes only there.
class MultirateSampleHits : public ::testing::TestWithParam<std::string> {};

TEST_P(MultirateSampleHits, EverySolverLandsOnEverySampleHit) {
  const RunOutput out = RunModelFile("examples/multirate_pid.xml", [](auto* s) {
    s->solver = GetParam();
    s->t_end = 0.05;
    s->step = 4e-4;  // fixed-step solvers: not a divisor of Ts, so landing takes shortened steps
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> u = Column(out.recording, "u");
  size_t row = 0;
  for (int k = 0; k <= 50; ++k) {
    const double hit = k * 1e-3;  // the same double the simulator computes: offset + k * Ts
    while (row < t.size() && t[row] < hit) ++row;
    ASSERT_LT(row, t.size());
    EXPECT_EQ(t[row], hit) << GetParam() << " missed the hit k = " << k;
  }
  for (size_t i = 1; i < t.size(); ++i) {
    const double k = t[i] / 1e-3;
    if (u[i] != u[i - 1]) {
      EXPECT_EQ(k, std::round(k)) << "u changed between hits at " << t[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EverySolver, MultirateSampleHits,
                         ::testing::ValuesIn(solvers::IntegratorNames()), [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace twinblocks::testing
