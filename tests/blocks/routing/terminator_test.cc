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
using ::testing::HasSubstr;

TEST(TerminatorTest, AcceptsAnythingAndHasNoOutputs) {
  BlockHarness h("Terminator", {}, {5});
  EXPECT_EQ(h.block().num_outputs(), 0);
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  h.SetInput(0, {1, 2, 3, 4, 5});
  h.Initialize();
  h.MajorStep(0.0);
}

}  // namespace
}  // namespace twinblocks::blocks
