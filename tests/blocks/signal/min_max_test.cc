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

TEST(MinMaxTest, ElementwiseMinWithExpansion) {
  BlockHarness h("MinMax", {}, {3, 1});
  h.Initialize();
  h.SetInput(0, {1, 5, -2});
  h.SetInput(1, {2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0, -2.0));
  // zc per element: the other candidate minus the winner.
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 3.0, 4.0));
}

TEST(MinMaxTest, MaxHoldsWinnerInMinorSteps) {
  BlockHarness h("MinMax", {{"op", "max"}, {"inputs", "3"}}, {1, 1, 1});
  h.Initialize();
  h.SetInputs({1, 3, 2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 3.0);
  h.SetInputs({1, 3, 4});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 3.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-2.0, 1.0));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 4.0);
}

TEST(MinMaxTest, OneInputReducesOverElements) {
  BlockHarness h("MinMax", {{"op", "max"}, {"inputs", "1"}}, {4});
  ASSERT_EQ(h.block().output_port(0).width, 1);
  h.Initialize();
  h.SetInput(0, {3, 9, -1, 2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 9.0);
  EXPECT_EQ(h.ZeroCrossings().size(), 3u);
}

}  // namespace
}  // namespace twinblocks::blocks
