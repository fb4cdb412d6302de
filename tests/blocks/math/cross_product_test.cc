#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CrossProductTest, RightHandedAndAntisymmetric) {
  BlockHarness h("CrossProduct", {}, {3, 3});
  h.SetInput(0, {1, 0, 0});
  h.SetInput(1, {0, 1, 0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0, 0, 1));  // x cross y = z
  // [1, 2, 3] x [4, 5, 6] = [2*6 - 3*5, 3*4 - 1*6, 1*5 - 2*4] = [-3, 6, -3].
  h.SetInput(0, {1, 2, 3});
  h.SetInput(1, {4, 5, 6});
  h.MajorStep(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(-3, 6, -3));
}

TEST(CrossProductTest, TakesOnlyThreeVectors) {
  const BlockError e = testing::CatchBlockError([] { BlockHarness h("CrossProduct", {}, {2, 3}); });
  EXPECT_THAT(e.what(), HasSubstr("input 'u1' has width 2, expected 3"));
}

}  // namespace
}  // namespace twinblocks::blocks
