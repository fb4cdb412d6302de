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

TEST(SignTest, ValuesAndHeldMode) {
  BlockHarness h("Sign", {}, {3});
  h.Initialize();
  h.SetInput(0, {-2, 0, 5});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(-1.0, 0.0, 1.0));
  h.SetInput(0, {1, 1, -1});
  h.MinorOutputs(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(-1.0, 0.0, 1.0));
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0, 1.0, -1.0));
  h.MajorStep(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 1.0, -1.0));
}

}  // namespace
}  // namespace twinblocks::blocks
