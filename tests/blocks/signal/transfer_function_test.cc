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

TEST(TransferFunctionTest, FirstOrderLag) {
  BlockHarness h("TransferFunction", {{"num", "[2]"}, {"den", "[0.5, 1]"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  h.Initialize();
  h.SetInput(0, {1});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);  // zero initial state
  // 2 / (0.5 s + 1) = 4 / (s + 2): x' = -2 x + u, y = 4 x.
  h.SetState({0.25});
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.5));
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.0);
}

TEST(TransferFunctionTest, SecondOrderWithFeedthrough) {
  // (s^2 + 3) / (s^2 + 2 s + 5): D = 1, C = [b1 - a1, b2 - a2] = [-2, -2].
  BlockHarness h("TransferFunction", {{"num", "[1, 0, 3]"}, {"den", "[1, 2, 5]"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  EXPECT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.SetState({1.0, -1.0});
  h.SetInput(0, {0.5});
  h.MinorOutputs(0.0);
  EXPECT_DOUBLE_EQ(h.Out(), -2.0 * 1.0 - 2.0 * -1.0 + 0.5);
  // x1' = -2 x1 - 5 x2 + u, x2' = x1.
  EXPECT_THAT(h.Derivatives(), ElementsAre(-2.0 + 5.0 + 0.5, 1.0));
}

TEST(TransferFunctionTest, ImproperIsAnError) {
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("TransferFunction", {{"num", "[1, 0, 0]"}, {"den", "[1, 1]"}});
            }).param(),
            "num");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("TransferFunction", {{"den", "[0, 0]"}});
            }).param(),
            "den");
}

}  // namespace
}  // namespace twinblocks::blocks
