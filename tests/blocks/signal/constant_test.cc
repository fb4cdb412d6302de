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

TEST(ConstantTest, VectorValueSetsWidth) {
  BlockHarness h("Constant", {{"value", "[1, 2.5, -3]"}}, {});
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.5, -3.0));
  EXPECT_TRUE(h.block().sample_time().is_constant());
}

TEST(ConstantTest, MatrixIsRowMajor) {
  BlockHarness h("Constant", {{"value", "[[1, 2], [3, 4]]"}}, {});
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0, 3.0, 4.0));
}

TEST(ConstantTest, DefaultIsOne) {
  BlockHarness h("Constant", {}, {});
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0));
}

}  // namespace
}  // namespace twinblocks::blocks
