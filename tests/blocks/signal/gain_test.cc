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

TEST(GainTest, ScalarScalesEveryElement) {
  BlockHarness h("Gain", {{"k", "2.5"}}, {3});
  h.SetInput(0, {1, -2, 4});
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.5, -5.0, 10.0));
}

TEST(GainTest, VectorIsElementwiseWithScalarExpansion) {
  BlockHarness h("Gain", {{"k", "[1, 2, 3]"}}, {1});
  ASSERT_EQ(h.block().output_port(0).width, 3);
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 4.0, 6.0));
  BlockHarness h3("Gain", {{"k", "[1, 2, 3]"}}, {3});
  h3.SetInput(0, {1, 1, -1});
  h3.MajorStep(0.0);
  EXPECT_THAT(h3.Output(), ElementsAre(1.0, 2.0, -3.0));
}

TEST(GainTest, MatrixTimesVector) {
  BlockHarness h("Gain", {{"k", "[[1, 2, 3], [4, 5, 6]]"}}, {3});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.SetInput(0, {1, 0, -1});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(-2.0, -2.0));
}

TEST(GainTest, MatrixWidthMismatchNamesParamAndPort) {
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("Gain", {{"k", "[[1, 2, 3], [4, 5, 6]]"}}, {2});
  });
  EXPECT_EQ(e.param(), "k");
  EXPECT_EQ(e.port(), "u");
  EXPECT_THAT(e.what(), HasSubstr("2x3"));
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("Gain", {{"k", "[1, 2]"}}, {3});
            }).param(),
            "k");
}

}  // namespace
}  // namespace twinblocks::blocks
