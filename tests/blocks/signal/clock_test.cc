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

TEST(ClockTest, OutputsTime) {
  BlockHarness h("Clock", {}, {});
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);
  h.MinorOutputs(0.125);
  EXPECT_EQ(h.Out(), 0.125);
  EXPECT_EQ(h.block().output_port(0).name, "t");
}

}  // namespace
}  // namespace twinblocks::blocks
