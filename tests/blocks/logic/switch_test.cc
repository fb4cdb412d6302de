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

TEST(SwitchTest, CriteriaAndScalarControl) {
  BlockHarness h("Switch", {{"threshold", "0.5"}}, {2, 1, 2});
  h.Initialize();
  h.SetInput(0, {1, 2});
  h.SetInput(1, {0.5});
  h.SetInput(2, {-1, -2});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));  // 0.5 >= 0.5
  BlockHarness g("Switch", {{"threshold", "0.5"}, {"criteria", ">"}}, {1, 1, 1});
  g.Initialize();
  g.SetInputs({1, 0.5, -1});
  g.MajorStep(0.0);
  EXPECT_EQ(g.Out(), -1.0);
  BlockHarness nz("Switch", {{"criteria", "!=0"}}, {1, 1, 1});
  nz.Initialize();
  nz.SetInputs({1, -0.1, -1});
  nz.MajorStep(0.0);
  EXPECT_EQ(nz.Out(), 1.0);
  EXPECT_THAT(nz.ZeroCrossings(), ElementsAre(-0.1));
}

TEST(SwitchTest, ChoiceHeldInMinorSteps) {
  BlockHarness h("Switch", {}, {1, 1, 1});
  h.Initialize();
  h.SetInputs({10, 1, 20});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 10.0);
  h.SetInputs({11, -1, 21});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 11.0);  // u1 still passes, and follows u1
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-1.0));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 21.0);
}

TEST(SwitchTest, WidthMismatchIsAnError) {
  EXPECT_EQ(testing::CatchBlockError([] { BlockHarness h("Switch", {}, {2, 1, 3}); }).port(), "u3");
}

}  // namespace
}  // namespace twinblocks::blocks
