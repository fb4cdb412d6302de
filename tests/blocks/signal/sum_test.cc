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

TEST(SumTest, SignsAndScalarExpansion) {
  BlockHarness h("Sum", {{"signs", "+-|+"}}, {2, 1, 2});
  ASSERT_EQ(h.block().num_inputs(), 3);
  h.SetInput(0, {1, 2});
  h.SetInput(1, {10});
  h.SetInput(2, {100, 200});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(91.0, 192.0));
}

TEST(SumTest, DefaultAddsTwoInputs) {
  BlockHarness h("Sum", {}, {1, 1});
  h.SetInputs({1.5, 2.0});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 3.5);
}

TEST(SumTest, SingleInputSumsItsElements) {
  BlockHarness h("Sum", {{"signs", "-"}}, {3});
  ASSERT_EQ(h.block().output_port(0).width, 1);
  h.SetInput(0, {1, 2, 3});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), -6.0);
}

TEST(SumTest, Errors) {
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Sum", {{"signs", "+*"}});
            }).param(),
            "signs");
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("Sum", {{"signs", "++"}}, {2, 3});
  });
  EXPECT_EQ(e.port(), "u2");
}

}  // namespace
}  // namespace twinblocks::blocks
