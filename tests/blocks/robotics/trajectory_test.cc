#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using testing::CatchBlockError;
using ::testing::HasSubstr;
using testing::MakeBlock;

// Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using Simscape Multibody", eq. 23 and
// its derivatives, written out independently of the block.
struct Expected {
  double q, qd, qdd;
};
Expected Cycloid(double q0, double qr, double t0, double T, double t) {
  if (t <= t0) return {q0, 0.0, 0.0};
  if (t >= t0 + T) return {q0 + qr, 0.0, 0.0};
  const double s = (t - t0) / T;
  return {q0 + qr * (s - std::sin(2 * M_PI * s) / (2 * M_PI)),
          qr / T * (1 - std::cos(2 * M_PI * s)), qr / (T * T) * 2 * M_PI * std::sin(2 * M_PI * s)};
}

TEST(TrajectoryTest, FollowsTheCycloidAndHoldsOutside) {
  BlockHarness h("Trajectory", {{"q0", "[0.1, -0.2]"}, {"qr", "[1, 2]"}, {"t0", "0.5"}, {"T", "2"}},
                 {});
  h.Initialize();
  ASSERT_EQ(h.Output("q").size(), 2u);
  const double q0[2] = {0.1, -0.2}, qr[2] = {1, 2};
  for (double t : {0.0, 0.5, 0.6, 1.0, 1.5, 2.2, 2.5, 3.0}) {
    h.MinorOutputs(t);
    for (int i = 0; i < 2; ++i) {
      const Expected e = Cycloid(q0[i], qr[i], 0.5, 2.0, t);
      EXPECT_NEAR(h.Output("q")[i], e.q, 1e-15) << "t = " << t;
      EXPECT_NEAR(h.Output("qd")[i], e.qd, 1e-15) << "t = " << t;
      EXPECT_NEAR(h.Output("qdd")[i], e.qdd, 1e-14) << "t = " << t;
    }
  }
  EXPECT_TRUE(h.block().sample_time().is_continuous());
}

TEST(TrajectoryTest, DerivativesMatchFiniteDifferences) {
  BlockHarness h("Trajectory", {{"qr", "0.7"}, {"T", "1.3"}}, {});
  h.Initialize();
  const double dt = 1e-6;
  for (double t : {0.1, 0.4, 0.65, 1.2}) {
    h.MinorOutputs(t + dt);
    const double qp = h.Output("q")[0], qdp = h.Output("qd")[0];
    h.MinorOutputs(t - dt);
    const double qm = h.Output("q")[0], qdm = h.Output("qd")[0];
    h.MinorOutputs(t);
    EXPECT_NEAR(h.Output("qd")[0], (qp - qm) / (2 * dt), 1e-8);
    EXPECT_NEAR(h.Output("qdd")[0], (qdp - qdm) / (2 * dt), 1e-7);
  }
}

TEST(TrajectoryTest, ScalarsExpandAndEndsAreBreakpoints) {
  BlockHarness h("Trajectory", {{"q0", "1"}, {"qr", "[1, 2, 3]"}, {"t0", "1"}, {"T", "2"}}, {});
  h.Initialize();
  h.MajorStep(10.0);
  EXPECT_EQ(h.Output("q"), (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(h.Output("qd"), (std::vector<double>{0, 0, 0}));
  EXPECT_TRUE(h.block().has_breakpoints());
  EXPECT_EQ(h.NextBreakpoint(0.0), 1.0);
  EXPECT_EQ(h.NextBreakpoint(1.0), 3.0);
  EXPECT_EQ(h.NextBreakpoint(2.0), 3.0);
  EXPECT_EQ(h.NextBreakpoint(3.0), std::numeric_limits<double>::infinity());
}

TEST(TrajectoryTest, BadParametersSayWhatWasExpected) {
  EXPECT_THAT(CatchBlockError([] {
                MakeBlock("Trajectory", {{"qr", "1"}, {"T", "0"}});
              }).what(),
              HasSubstr("'T' must be a positive duration"));
  EXPECT_THAT(CatchBlockError([] {
                MakeBlock("Trajectory", {{"q0", "[1, 2]"}, {"qr", "[1, 2, 3]"}});
              }).what(),
              HasSubstr("'qr' has 3 elements"));
  EXPECT_THAT(CatchBlockError([] { MakeBlock("Trajectory", {}); }).what(),
              HasSubstr("'qr' is required"));
}

}  // namespace
}  // namespace twinblocks::blocks
