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

TEST(CompareToConstantTest, ComparesWithValue) {
  BlockHarness h("CompareToConstant", {{"op", ">="}, {"value", "1.5"}}, {3});
  h.Initialize();
  h.SetInput(0, {1, 1.5, 2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 1.0, 1.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-0.5, 0.0, 0.5));
}

TEST(CompareToConstantTest, HeldInMinorStepsAndSimulinkDefaults) {
  BlockHarness h("CompareToConstant", {}, {1});  // u <= 3
  h.Initialize();
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.0);
  h.SetInput(0, {4});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 0.0);
}

TEST(CompareToConstantTest, VectorValueMustFit) {
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("CompareToConstant", {{"value", "[1, 2]"}}, {3});
            }).param(),
            "value");
}

}  // namespace
}  // namespace twinblocks::blocks
