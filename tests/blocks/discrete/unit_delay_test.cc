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

TEST(UnitDelayTest, OutputsPreviousSample) {
  BlockHarness h("UnitDelay", {{"x0", "[1, 2]"}, {"Ts", "0.1"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_TRUE(h.block().requires_discrete_rate());
  EXPECT_EQ(h.block().sample_time(), SampleTime::Discrete(0.1));
  h.Initialize();
  std::vector<std::vector<double>> ys;
  const std::vector<std::vector<double>> us = {{10, 20}, {11, 21}, {12, 22}};
  for (int k = 0; k < 3; ++k) {
    h.SetInput(0, us[k]);
    h.MajorStep(0.1 * k);
    ys.push_back(h.Output());
  }
  EXPECT_THAT(ys,
              ElementsAre(ElementsAre(1.0, 2.0), ElementsAre(10.0, 20.0), ElementsAre(11.0, 21.0)));
}

TEST(UnitDelayTest, HoldsBetweenHits) {
  BlockHarness h("UnitDelay", {{"Ts", "0.5"}, {"offset", "0.1"}}, {1});
  h.Initialize();
  h.SetInput(0, {4});
  h.MajorStep(0.0);  // not a hit: nothing runs
  EXPECT_EQ(h.xd()[0], 0.0);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 0.0);
  h.SetInput(0, {5});
  h.MajorStep(0.3);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(0.6);
  EXPECT_EQ(h.Out(), 4.0);
}

TEST(UnitDelayTest, InheritedAndErrors) {
  EXPECT_TRUE(testing::MakeBlock("UnitDelay")->sample_time().is_inherited());
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("UnitDelay", {{"Ts", "0"}});
            }).param(),
            "Ts");
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("UnitDelay", {{"Ts", "1"}, {"offset", "1"}});
            }).param(),
            "offset");
  EXPECT_EQ(testing::CatchBlockError([] {
              BlockHarness h("UnitDelay", {{"x0", "[1, 2]"}}, {3});
            }).param(),
            "x0");
}

}  // namespace
}  // namespace twinblocks::blocks
