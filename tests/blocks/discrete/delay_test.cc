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

TEST(DelayTest, DelaysByNSamples) {
  BlockHarness h("Delay", {{"n", "3"}, {"x0", "-1"}, {"Ts", "1"}}, {1});
  EXPECT_EQ(h.block().num_discrete_states(), 3);
  h.Initialize();
  std::vector<double> ys;
  for (int k = 0; k < 7; ++k) {
    h.SetInput(0, {static_cast<double>(10 + k)});
    h.MajorStep(k);
    ys.push_back(h.Out());
  }
  EXPECT_THAT(ys, ElementsAre(-1, -1, -1, 10, 11, 12, 13));
}

TEST(DelayTest, PerElementInitialCondition) {
  BlockHarness h("Delay", {{"n", "2"}, {"x0", "[1, 2]"}, {"Ts", "0.5"}}, {2});
  h.Initialize();
  h.SetInput(0, {5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.SetInput(0, {7, 8});
  h.MajorStep(0.5);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.MajorStep(1.0);
  EXPECT_THAT(h.Output(), ElementsAre(5.0, 6.0));
  h.MajorStep(1.5);
  EXPECT_THAT(h.Output(), ElementsAre(7.0, 8.0));
}

TEST(DelayTest, ZeroIsAWire) {
  BlockHarness h("Delay", {{"n", "0"}, {"Ts", "1"}}, {1});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  h.Initialize();
  h.SetInput(0, {3});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 3.0);
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Delay", {{"n", "-1"}});
            }).param(),
            "n");
}

}  // namespace
}  // namespace twinblocks::blocks
