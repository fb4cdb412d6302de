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

TEST(ZeroOrderHoldTest, SamplesAtHitsAndHolds) {
  BlockHarness h("ZeroOrderHold", {{"Ts", "0.25"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kFeedthrough);
  h.Initialize();
  h.SetInput(0, {1, 2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.SetInput(0, {3, 4});
  h.MajorStep(0.1);  // between hits: held
  h.MinorOutputs(0.2);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.MajorStep(0.25);
  EXPECT_THAT(h.Output(), ElementsAre(3.0, 4.0));
}

}  // namespace
}  // namespace twinblocks::blocks
