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

TEST(SaturationTest, LimitsAndZeroCrossings) {
  BlockHarness h("Saturation", {{"lower", "-1"}, {"upper", "2"}}, {3});
  h.Initialize();
  h.SetInput(0, {-3, 0.5, 5});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(-1.0, 0.5, 2.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-5.0, -2.0, -1.5, 1.5, 3.0, 6.0));
}

TEST(SaturationTest, RegionHeldInMinorSteps) {
  BlockHarness h("Saturation", {}, {1});
  h.Initialize();
  h.SetInput(0, {0.5});
  h.MajorStep(0.0);
  h.SetInput(0, {1.5});  // past the upper limit inside a step: y follows u smoothly
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 1.5);
  EXPECT_GT(h.ZeroCrossings()[0], 0.0);  // u - upper changed sign: the solver locates it
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
  h.SetInput(0, {0.0});
  h.MinorOutputs(0.2);
  EXPECT_EQ(h.Out(), 1.0);
}

TEST(SaturationTest, VectorLimitsExpandScalarInput) {
  BlockHarness h("Saturation", {{"lower", "[0, -1]"}, {"upper", "[1, 0]"}}, {1});
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize();
  h.SetInput(0, {0.5});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.5, 0.0));
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness b("Saturation", {{"lower", "[0, -1]"}}, {3});
            }).param(),
            "lower");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Saturation", {{"lower", "2"}, {"upper", "1"}});
            }).param(),
            "lower");
}

}  // namespace
}  // namespace twinblocks::blocks
