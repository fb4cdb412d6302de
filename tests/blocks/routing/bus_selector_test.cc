#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The bus (arm: (q: 2, qd: 2), t: 1, R: 2x2), as BusCreators would make it.
SignalShape ArmBus() {
  auto arm = std::make_shared<BusLayout>();
  arm->elements = {{"q", 0, 2, {}}, {"qd", 2, 2, {}}};
  arm->width = 4;
  auto bus = std::make_shared<BusLayout>();
  bus->elements = {{"arm", 0, 4, SignalShape::Bus(arm)},
                   {"t", 4, 1, {}},
                   {"R", 5, 4, SignalShape::Matrix(2, 2)}};
  bus->width = 9;
  return SignalShape::Bus(bus);
}

BlockHarness Selector(const testing::ParamTexts& params) {
  BlockHarness::Options o;
  o.input_shapes = {ArmBus()};
  return BlockHarness("BusSelector", params, {9}, o);
}

TEST(BusSelectorTest, SelectsByNameWithShapesAndDots) {
  BlockHarness h = Selector({{"signals", "R, arm.qd, t, arm"}});
  ASSERT_EQ(h.block().num_outputs(), 4);
  EXPECT_EQ(h.block().output_port(0).shape, SignalShape::Matrix(2, 2));
  EXPECT_TRUE(h.block().output_port(3).shape.is_bus());
  h.SetInput(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output("y1"), ElementsAre(6, 7, 8, 9));
  EXPECT_THAT(h.Output("y2"), ElementsAre(3, 4));
  EXPECT_THAT(h.Output("y3"), ElementsAre(5));
  EXPECT_THAT(h.Output("y4"), ElementsAre(1, 2, 3, 4));
}

TEST(BusSelectorTest, OutputAsBusNamesByTheLastPart) {
  BlockHarness h = Selector({{"signals", "t, arm.q"}, {"output_as_bus", "true"}});
  const SignalShape& y = h.block().output_port(0).shape;
  ASSERT_TRUE(y.is_bus());
  EXPECT_THAT(y.bus->Paths(), ElementsAre("t", "q"));
  h.SetInput(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output("y"), ElementsAre(5, 1, 2));
}

TEST(BusSelectorTest, AnUnknownNameListsTheBusAndSuggests) {
  const BlockError e = testing::CatchBlockError([] { Selector({{"signals", "arm.qdd"}}); });
  EXPECT_EQ(e.param(), "signals");
  EXPECT_STREQ(e.what(),
               "parameter 'signals' asks for 'arm.qdd', which the bus does not have; did you "
               "mean 'arm.qd'?; the bus has: arm, arm.q, arm.qd, t, R");
  EXPECT_THAT(testing::CatchBlockError([] {
                Selector({{"signals", "t.x"}});
              }).what(),
              HasSubstr("but 't' is no bus"));
  EXPECT_THAT(testing::CatchBlockError([] {
                BlockHarness h("BusSelector", {{"signals", "a"}}, {3});
              }).what(),
              HasSubstr("input 'u' is no bus (a vector of width 3)"));
  // t and arm.t would both be 't' in one bus.
  auto arm = std::make_shared<BusLayout>();
  arm->elements = {{"t", 0, 1, {}}};
  arm->width = 1;
  auto bus = std::make_shared<BusLayout>();
  bus->elements = {{"arm", 0, 1, SignalShape::Bus(arm)}, {"t", 1, 1, {}}};
  bus->width = 2;
  BlockHarness::Options o;
  o.input_shapes = {SignalShape::Bus(bus)};
  EXPECT_THAT(
      testing::CatchBlockError([&] {
        BlockHarness h("BusSelector", {{"signals", "arm.t, t"}, {"output_as_bus", "true"}}, {2}, o);
      }).what(),
      HasSubstr("two elements named 't'"));
}

}  // namespace
}  // namespace twinblocks::blocks
