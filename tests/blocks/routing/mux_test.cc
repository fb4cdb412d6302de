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

TEST(MuxTest, Concatenates) {
  BlockHarness h("Mux", {{"inputs", "3"}}, {2, 1, 3});
  ASSERT_EQ(h.block().output_port(0).width, 6);
  h.SetInput(0, {1, 2});
  h.SetInput(1, {3});
  h.SetInput(2, {4, 5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1, 2, 3, 4, 5, 6));
}

}  // namespace
}  // namespace twinblocks::blocks
