#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ReshapeTest, KeepsTheValuesAndChangesTheShape) {
  BlockHarness h("Reshape", {{"output", "custom"}, {"dimensions", "[2, 3]"}}, {6});
  EXPECT_EQ(h.block().output_port(0).shape, SignalShape::Matrix(2, 3));
  h.SetInput(0, {1, 2, 3, 4, 5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_EQ(BlockHarness("Reshape", {{"output", "row"}}, {4}).block().output_port(0).shape,
            SignalShape::Matrix(1, 4));
  BlockHarness::Options matrix;
  matrix.input_shapes = {SignalShape::Matrix(2, 2)};
  EXPECT_TRUE(BlockHarness("Reshape", {}, {4}, matrix).block().output_port(0).shape.is_plain());
  EXPECT_TRUE(BlockHarness("Reshape", {{"output", "column"}}, {4}, matrix)
                  .block()
                  .output_port(0)
                  .shape.is_plain());
}

TEST(ReshapeTest, DimensionsMustHoldTheInput) {
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("Reshape", {{"output", "custom"}, {"dimensions", "[2, 2]"}}, {6});
  });
  EXPECT_THAT(e.what(), HasSubstr("[2, 2] holds 4 elements, but input 'u' has width 6"));
  EXPECT_EQ(e.param(), "dimensions");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Reshape", {{"dimensions", "[2, 0.5]"}});
            }).param(),
            "dimensions");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Reshape", {{"dimensions", "[2, 2, 2]"}});
            }).param(),
            "dimensions");
}

}  // namespace
}  // namespace twinblocks::blocks
