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

TEST(GotoTest, IsVirtualWithATag) {
  const BlockType& t = testing::TypeOf("Goto");
  EXPECT_TRUE(t.is_virtual);
  EXPECT_FALSE(t.create);
  ASSERT_NE(t.FindParam("tag"), nullptr);
  EXPECT_TRUE(t.FindParam("tag")->required);
  ASSERT_EQ(t.inputs.size(), 1u);
  EXPECT_EQ(t.inputs[0].name, "u");
  EXPECT_TRUE(t.outputs.empty());
}

}  // namespace
}  // namespace twinblocks::blocks
