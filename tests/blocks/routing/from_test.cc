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

TEST(FromTest, IsVirtualWithATag) {
  const BlockType& t = testing::TypeOf("From");
  EXPECT_TRUE(t.is_virtual);
  EXPECT_FALSE(t.create);
  ASSERT_NE(t.FindParam("tag"), nullptr);
  ASSERT_EQ(t.outputs.size(), 1u);
  EXPECT_EQ(t.outputs[0].name, "y");
  EXPECT_TRUE(t.inputs.empty());
}

}  // namespace
}  // namespace twinblocks::blocks
