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

TEST(PidTest, ParallelFormWithFilteredDerivative) {
  BlockHarness h("PID", {{"Kp", "2"}, {"Ki", "3"}, {"Kd", "0.5"}, {"N", "10"}}, {1});
  EXPECT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.SetState({0.2, 0.4});  // integral, filter
  h.SetInput(0, {1.0});
  h.MajorStep(0.0);
  // u = Kp e + Ki xi + Kd N (e - f)
  EXPECT_DOUBLE_EQ(h.Out(), 2.0 + 3.0 * 0.2 + 0.5 * 10.0 * (1.0 - 0.4));
  EXPECT_THAT(h.Derivatives(), ElementsAre(1.0, 10.0 * (1.0 - 0.4)));
}

TEST(PidTest, PureIntegralHasNoFeedthrough) {
  BlockHarness h("PID", {{"Kp", "0"}, {"Ki", "2"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_EQ(h.block().num_continuous_states(), 2);
  h.Initialize();
  h.SetState({1.0, -1.0});
  h.MinorOutputs(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -2.0));
}

TEST(PidTest, DefaultIsProportional) {
  BlockHarness h("PID", {}, {1});
  EXPECT_EQ(h.block().num_continuous_states(), 0);
  h.Initialize();
  h.SetInput(0, {0.7});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.7);
}

}  // namespace
}  // namespace twinblocks::blocks
