#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

TEST(PulseTest, EdgesAreBreakpointsAndMajorStepsSwitch) {
  BlockHarness h("Pulse",
                 {{"amplitude", "3"}, {"period", "0.2"}, {"duty", "0.25"}, {"start", "0.1"}}, {});
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);
  // Walk the breakpoints as a solver would: each is strictly after the last.
  double t = 0.0;
  std::vector<double> edges;
  for (int i = 0; i < 6; ++i) {
    const double next = h.NextBreakpoint(t);
    ASSERT_GT(next, t);
    h.MinorOutputs(next);  // a stage at the edge keeps the old level
    const double before = h.Out();
    h.MajorStep(next);
    EXPECT_NE(h.Out(), before) << "at " << next;
    edges.push_back(next);
    t = next;
  }
  EXPECT_THAT(
      edges, ElementsAre(DoubleNear(0.1, 1e-15), DoubleNear(0.15, 1e-15), DoubleNear(0.3, 1e-15),
                         DoubleNear(0.35, 1e-15), DoubleNear(0.5, 1e-15), DoubleNear(0.55, 1e-15)));
  EXPECT_EQ(h.Out(), 0.0);
}

TEST(PulseTest, LevelsInsideThePeriod) {
  BlockHarness h("Pulse", {}, {});  // amplitude 1, period 1, duty 0.5, start 0
  h.Initialize(0.0);
  for (auto [t, y] : std::vector<std::pair<double, double>>{{0.0, 1.0},
                                                            {0.49, 1.0},
                                                            {0.5, 0.0},
                                                            {0.99, 0.0},
                                                            {1.0, 1.0},
                                                            {7.25, 1.0},
                                                            {7.75, 0.0}}) {
    h.MajorStep(t);
    EXPECT_EQ(h.Out(), y) << "t = " << t;
  }
}

TEST(PulseTest, BadDutyIsAnError) {
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Pulse", {{"duty", "1.5"}});
            }).param(),
            "duty");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Pulse", {{"period", "0"}});
            }).param(),
            "period");
}

}  // namespace
}  // namespace twinblocks::blocks
