#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ConcatenateTest, VectorModeJoinsAsMux) {
  BlockHarness h("Concatenate", {{"inputs", "3"}}, {2, 1, 3});
  EXPECT_TRUE(h.block().output_port(0).shape.is_plain());
  h.SetInput(0, {1, 2});
  h.SetInput(1, {3});
  h.SetInput(2, {4, 5, 6});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(ConcatenateTest, StacksMatricesVerticallyOrSideBySide) {
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Matrix(2, 2), SignalShape::Matrix(1, 2)};
  BlockHarness v("Concatenate", {{"mode", "multidimensional"}, {"dimension", "1"}}, {4, 2}, o);
  EXPECT_EQ(v.block().output_port(0).shape, SignalShape::Matrix(3, 2));
  v.SetInput(0, {1, 2, 3, 4});
  v.SetInput(1, {5, 6});
  v.MajorStep(0.0);
  EXPECT_THAT(v.Output(), ElementsAre(1, 2, 3, 4, 5, 6));
  // [[1, 2], [3, 4]] beside the column [5, 6]: [[1, 2, 5], [3, 4, 6]].
  o.input_shapes = {SignalShape::Matrix(2, 2), {}};
  BlockHarness s("Concatenate", {{"mode", "multidimensional"}, {"dimension", "2"}}, {4, 2}, o);
  EXPECT_EQ(s.block().output_port(0).shape, SignalShape::Matrix(2, 3));
  s.SetInput(0, {1, 2, 3, 4});
  s.SetInput(1, {5, 6});
  s.MajorStep(0.0);
  EXPECT_THAT(s.Output(), ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(ConcatenateTest, RefusesWhatDoesNotJoin) {
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Matrix(2, 2), {}};
  EXPECT_THAT(testing::CatchBlockError([&] {
                BlockHarness h("Concatenate", {}, {4, 3}, o);
              }).what(),
              HasSubstr("mode 'vector' joins vectors"));
  const BlockError e = testing::CatchBlockError([&] {
    BlockHarness h("Concatenate", {{"mode", "multidimensional"}, {"dimension", "2"}}, {4, 3}, o);
  });
  EXPECT_THAT(e.what(), HasSubstr("input 'u2' is 3x1, but side by side"));
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Concatenate", {{"dimension", "3"}});
            }).param(),
            "dimension");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Concatenate", {{"inputs", "0"}});
            }).param(),
            "inputs");
}

}  // namespace
}  // namespace twinblocks::blocks
