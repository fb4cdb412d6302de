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

TEST(RampTest, StartsAtStartWithSlope) {
  BlockHarness h("Ramp", {{"slope", "2"}, {"start", "1"}, {"initial", "0.5"}}, {});
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.5);
  EXPECT_EQ(h.NextBreakpoint(0.0), 1.0);
  h.MinorOutputs(1.5);  // mode still "before start"
  EXPECT_EQ(h.Out(), 0.5);
  h.MajorStep(1.0);
  EXPECT_EQ(h.Out(), 0.5);
  h.MinorOutputs(1.5);
  EXPECT_DOUBLE_EQ(h.Out(), 1.5);
  h.MajorStep(3.0);
  EXPECT_DOUBLE_EQ(h.Out(), 4.5);
  EXPECT_TRUE(std::isinf(h.NextBreakpoint(1.0)));
}

}  // namespace
}  // namespace twinblocks::blocks
