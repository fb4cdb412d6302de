#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

TEST(DotProductTest, SumsTheProducts) {
  BlockHarness h("DotProduct", {}, {3, 3});
  h.SetInput(0, {1, 2, 3});
  h.SetInput(1, {4, -5, 6});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 4 - 10 + 18);
  BlockHarness scalar("DotProduct", {}, {1, 3});
  scalar.SetInput(0, {2});
  scalar.SetInput(1, {1, 2, 3});
  scalar.MajorStep(0.0);
  EXPECT_EQ(scalar.Out(), 12);
}

TEST(DotProductTest, RefusesMatricesAndUnequalWidths) {
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Matrix(2, 2), {}};
  EXPECT_THAT(testing::CatchBlockError([&] {
                BlockHarness h("DotProduct", {}, {4, 4}, o);
              }).what(),
              HasSubstr("is a 2x2 matrix; the dot product takes vectors"));
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("DotProduct", {}, {2, 3});
            }).port(),
            "u2");
}

}  // namespace
}  // namespace twinblocks::blocks
