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

TEST(AbsTest, ModeHeldInMinorSteps) {
  BlockHarness h("Abs", {}, {2});
  h.Initialize();
  h.SetInput(0, {-2, 3});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 3.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-2.0, 3.0));
  // Inside a step u crosses zero: the held sign keeps y smooth, the crossing shows in zc.
  h.SetInput(0, {0.5, -1});
  h.MinorOutputs(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(-0.5, -1.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.5, -1.0));
  h.MajorStep(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(0.5, 1.0));
}

TEST(AbsTest, DiscreteRateHasNoActiveCrossings) {
  BlockHarness::Options o;
  o.inherited_as = SampleTime::Discrete(0.1);
  BlockHarness h("Abs", {}, {1}, o);
  h.Initialize();
  h.SetInput(0, {-2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 2.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0));
}

}  // namespace
}  // namespace twinblocks::blocks
