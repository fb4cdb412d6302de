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

TEST(ProductTest, MultiplyAndDivideElementwise) {
  BlockHarness h("Product", {{"ops", "*/*"}}, {2, 1, 2});
  h.SetInput(0, {6, 8});
  h.SetInput(1, {2});
  h.SetInput(2, {1, -1});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(3.0, -4.0));
}

TEST(ProductTest, SingleInputMultipliesElements) {
  BlockHarness h("Product", {{"ops", "*"}}, {3});
  h.SetInput(0, {2, 3, 4});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 24.0);
  BlockHarness r("Product", {{"ops", "/"}}, {2});
  r.SetInput(0, {2, 4});
  r.MajorStep(0.0);
  EXPECT_EQ(r.Out(), 0.125);
}

TEST(ProductTest, BadOpsIsAnError) {
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Product", {{"ops", "*+"}});
            }).param(),
            "ops");
}

}  // namespace
}  // namespace twinblocks::blocks
