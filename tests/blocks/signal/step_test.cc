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

TEST(StepTest, JumpsAtTimeAndLandsThere) {
  BlockHarness h("Step", {{"time", "0.3"}, {"before", "-1"}, {"after", "2"}}, {});
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), -1.0);
  EXPECT_EQ(h.NextBreakpoint(0.0), 0.3);
  EXPECT_EQ(h.NextBreakpoint(0.1), 0.3);
  EXPECT_TRUE(std::isinf(h.NextBreakpoint(0.3)));
  // A solver stage that reaches the step time inside a step still sees the old level.
  h.MinorOutputs(0.3);
  EXPECT_EQ(h.Out(), -1.0);
  h.MajorStep(0.3);
  EXPECT_EQ(h.Out(), 2.0);
  h.MinorOutputs(0.35);
  EXPECT_EQ(h.Out(), 2.0);
}

TEST(StepTest, VectorLevels) {
  BlockHarness h("Step", {{"before", "[0, 1]"}, {"after", "5"}}, {});
  h.Initialize(2.0);
  h.MajorStep(2.0);
  EXPECT_THAT(h.Output(), ElementsAre(5.0, 5.0));
}

TEST(StepTest, MismatchedLevelsAreAnError) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("Step", {{"before", "[0, 1]"}, {"after", "[1, 2, 3]"}});
  });
  EXPECT_EQ(e.param(), "after");
}

}  // namespace
}  // namespace twinblocks::blocks
