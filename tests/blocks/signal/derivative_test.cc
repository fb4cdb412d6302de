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

TEST(DerivativeTest, DifferenceOverLastMajorStep) {
  BlockHarness h("Derivative", {}, {2});
  h.Initialize(0.0);
  h.SetInput(0, {1, 2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 0.0));  // nothing to difference at the start
  h.SetInput(0, {2, 0});
  h.MinorOutputs(0.25);
  EXPECT_THAT(h.Output(), ElementsAre(4.0, -8.0));
  h.SetInput(0, {1.5, 2});
  h.MajorStep(0.5);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 0.0));
  h.SetInput(0, {2.5, 2});
  h.MajorStep(1.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 0.0));
  h.MajorStep(1.0);  // repeated major step at the same time keeps the slope
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 0.0));
}

}  // namespace
}  // namespace twinblocks::blocks
