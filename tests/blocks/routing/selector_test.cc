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

TEST(SelectorTest, PicksZeroBasedIndices) {
  BlockHarness h("Selector", {{"indices", "[2, 0, 2]"}}, {4});
  ASSERT_EQ(h.block().output_port(0).width, 3);
  h.SetInput(0, {10, 11, 12, 13});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(12, 10, 12));
}

TEST(SelectorTest, OutOfRangeIsAnErrorAtConfigure) {
  EXPECT_NO_THROW(testing::MakeBlock("Selector", {{"indices", "[3]"}}));
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("Selector", {{"indices", "[3]"}}, {3});
  });
  EXPECT_EQ(e.param(), "indices");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Selector", {{"indices", "[-1]"}});
            }).param(),
            "indices");
  EXPECT_EQ(testing::CatchBlockError([] { testing::MakeBlock("Selector"); }).param(), "indices");
}

}  // namespace
}  // namespace twinblocks::blocks
