#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;

TEST(TransposeTest, SwapsRowsAndColumns) {
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Matrix(2, 3)};
  BlockHarness h("Transpose", {}, {6}, o);
  EXPECT_EQ(h.block().output_port(0).shape, SignalShape::Matrix(3, 2));
  h.SetInput(0, {1, 2, 3, 4, 5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(TransposeTest, AVectorBecomesARowAndARowAVector) {
  BlockHarness column("Transpose", {}, {3});
  EXPECT_EQ(column.block().output_port(0).shape, SignalShape::Matrix(1, 3));
  column.SetInput(0, {1, 2, 3});
  column.MajorStep(0.0);
  EXPECT_THAT(column.Output(), ElementsAre(1, 2, 3));
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Matrix(1, 3)};
  BlockHarness row("Transpose", {}, {3}, o);
  EXPECT_TRUE(row.block().output_port(0).shape.is_plain());
}

}  // namespace
}  // namespace twinblocks::blocks
