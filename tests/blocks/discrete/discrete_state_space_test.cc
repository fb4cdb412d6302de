// DiscreteStateSpace against a hand recursion, a MIMO system, and its bad parameters (the
// comparison with the equivalent DiscreteTransferFunction is in
// discrete_transfer_function_test.cc).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DiscreteStateSpaceTest, ScalarByHand) {
  // x[k+1] = 0.5 x + u, y = 2 x + u, x[0] = 1, u = 1: y = 3, 4, 4.5, 4.75.
  BlockHarness h("DiscreteStateSpace",
                 {{"A", "0.5"}, {"B", "1"}, {"C", "2"}, {"D", "1"}, {"x0", "1"}, {"Ts", "0.2"}},
                 {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  h.Initialize();
  std::vector<double> y;
  for (int k = 0; k < 4; ++k) {
    h.SetInput(0, {1.0});
    h.MajorStep(0.2 * k);
    y.push_back(h.Out());
  }
  EXPECT_THAT(y, ElementsAre(3.0, 4.0, 4.5, 4.75));
}

TEST(DiscreteStateSpaceTest, TwoInputsTwoOutputsWithoutFeedthrough) {
  // A double integrator in position and velocity, Ts = 1: x1 += x2, x2 += u1 - u2; y = x.
  BlockHarness h("DiscreteStateSpace",
                 {{"A", "[[1, 1], [0, 1]]"},
                  {"B", "[[0, 0], [1, -1]]"},
                  {"C", "[[1, 0], [0, 1]]"},
                  {"x0", "[0, 1]"},
                  {"Ts", "1"}},
                 {2});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  h.Initialize();
  h.SetInput(0, {3.0, 1.0});
  for (int k = 0; k < 3; ++k) h.MajorStep(k);
  // x: (0, 1) -> (1, 3) -> (4, 5); y at the third hit is the state then.
  EXPECT_THAT(h.Output(), ElementsAre(4.0, 5.0));
}

TEST(DiscreteStateSpaceTest, BadSizesNameTheMatrix) {
  auto error = [](const testing::ParamTexts& p) {
    return testing::CatchBlockError([&] { testing::MakeBlock("DiscreteStateSpace", p); });
  };
  const BlockError b = error({{"A", "[[1, 0], [0, 1]]"}, {"B", "[[1, 2, 3]]"}});
  EXPECT_EQ(b.param(), "B");
  EXPECT_THAT(b.what(), HasSubstr("B must have 2 rows"));
  EXPECT_EQ(error({{"A", "[[1, 2]]"}}).param(), "A");
  EXPECT_EQ(error({{"C", "[[1, 2]]"}}).param(), "C");
  EXPECT_EQ(error({{"D", "[[1, 2]]"}}).param(), "D");
  EXPECT_EQ(error({{"x0", "[1, 2]"}}).param(), "x0");
  EXPECT_EQ(error({{"offset", "2"}, {"Ts", "1"}}).param(), "offset");
}

}  // namespace
}  // namespace twinblocks::blocks
