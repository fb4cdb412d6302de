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

TEST(StateSpaceTest, DerivativesAndOutputs) {
  // A mass-spring-damper: x = [p, v], u force, y = p.
  BlockHarness h(
      "StateSpace",
      {{"A", "[[0, 1], [-4, -0.5]]"}, {"B", "[0, 1]"}, {"C", "[1, 0]"}, {"x0", "[0.1, 0]"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_EQ(h.block().output_port(0).width, 1);
  h.Initialize();
  EXPECT_THAT(h.x(), ElementsAre(0.1, 0.0));
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.1);
  EXPECT_THAT(h.Derivatives(), ElementsAre(0.0, -0.4 + 2.0));
}

TEST(StateSpaceTest, FeedthroughWithMatrixD) {
  BlockHarness h("StateSpace",
                 {{"A", "-1"}, {"B", "[[1, 2]]"}, {"C", "[1, 3]"}, {"D", "[[0, 1], [1, 0]]"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize();
  h.SetState({2.0});
  h.SetInput(0, {10, 20});
  h.MinorOutputs(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0 + 20.0, 6.0 + 10.0));
  EXPECT_THAT(h.Derivatives(), ElementsAre(-2.0 + 10.0 + 40.0));
}

TEST(StateSpaceTest, SizeErrorsNameTheMatrix) {
  auto param_of = [](testing::ParamTexts p) {
    return testing::CatchBlockError([&] { testing::MakeBlock("StateSpace", p); }).param();
  };
  EXPECT_EQ(param_of({{"A", "[[1, 2]]"}}), "A");
  EXPECT_EQ(param_of({{"A", "[[1, 0], [0, 1]]"}, {"B", "[1, 2, 3]"}}), "B");
  EXPECT_EQ(param_of({{"A", "[[1, 0], [0, 1]]"}, {"B", "[1, 2]"}, {"C", "[1, 2, 3]"}}), "C");
  EXPECT_EQ(param_of({{"D", "[[1, 2]]"}}), "D");
  EXPECT_EQ(param_of({{"x0", "[1, 2]"}}), "x0");
  EXPECT_EQ(testing::CatchBlockError([] { BlockHarness h("StateSpace", {}, {2}); }).port(), "u");
}

}  // namespace
}  // namespace twinblocks::blocks
