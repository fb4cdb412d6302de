#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(BusCreatorTest, ConcatenatesAndLaysOutTheNames) {
  BlockHarness::Options o;
  o.input_shapes = {{}, SignalShape::Matrix(2, 2)};
  BlockHarness h("BusCreator", {{"names", "pos, R"}}, {3, 4}, o);
  const SignalShape& y = h.block().output_port(0).shape;
  ASSERT_TRUE(y.is_bus());
  ASSERT_EQ(y.bus->elements.size(), 2u);
  EXPECT_EQ(y.bus->width, 7);
  EXPECT_EQ(y.bus->elements[1].name, "R");
  EXPECT_EQ(y.bus->elements[1].offset, 3);
  EXPECT_EQ(y.bus->elements[1].shape, SignalShape::Matrix(2, 2));
  h.SetInput(0, {1, 2, 3});
  h.SetInput(1, {4, 5, 6, 7});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1, 2, 3, 4, 5, 6, 7));
}

TEST(BusCreatorTest, NestsABusGoingIn) {
  BlockHarness inner("BusCreator", {{"names", "q qd"}}, {2, 2});
  BlockHarness::Options o;
  o.input_shapes = {inner.block().output_port(0).shape, {}};
  BlockHarness outer("BusCreator", {{"names", "arm, t"}}, {4, 1}, o);
  EXPECT_THAT(outer.block().output_port(0).shape.bus->Paths(),
              ElementsAre("arm", "arm.q", "arm.qd", "t"));
}

TEST(BusCreatorTest, RefusesBadNames) {
  for (const char* names : {"a, a", "1a", "a.b", ""}) {
    SCOPED_TRACE(names);
    const BlockError e = testing::CatchBlockError([&] {
      testing::MakeBlock("BusCreator", {{"names", names}});
    });
    EXPECT_EQ(e.param(), "names");
  }
  EXPECT_THAT(testing::CatchBlockError([] {
                testing::MakeBlock("BusCreator", {{"names", "x, x"}});
              }).what(),
              HasSubstr("names 'x' twice"));
}

}  // namespace
}  // namespace twinblocks::blocks
