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

TEST(DemuxTest, SplitsEvenly) {
  BlockHarness h("Demux", {{"outputs", "3"}}, {6});
  ASSERT_EQ(h.block().num_outputs(), 3);
  EXPECT_EQ(h.block().output_port(2).name, "y3");
  h.SetInput(0, {1, 2, 3, 4, 5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(0), ElementsAre(1, 2));
  EXPECT_THAT(h.Output(1), ElementsAre(3, 4));
  EXPECT_THAT(h.Output(2), ElementsAre(5, 6));
}

TEST(DemuxTest, UnevenWidthIsAnError) {
  const BlockError e = testing::CatchBlockError([] { BlockHarness h("Demux", {}, {3}); });
  EXPECT_EQ(e.port(), "u");
  EXPECT_THAT(e.what(), HasSubstr("3"));
}

}  // namespace
}  // namespace twinblocks::blocks
