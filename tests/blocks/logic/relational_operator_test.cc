#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RelationalOperatorTest, EveryOperator) {
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {
      {"<", {1, 0, 0}},  {"<=", {1, 1, 0}}, {">", {0, 0, 1}},
      {">=", {0, 1, 1}}, {"==", {0, 1, 0}}, {"!=", {1, 0, 1}}};
  for (const auto& [op, expected] : cases) {
    BlockHarness h("RelationalOperator", {{"op", op}}, {3, 1});
    h.Initialize();
    h.SetInput(0, {1, 2, 3});
    h.SetInput(1, {2});
    h.MajorStep(0.0);
    EXPECT_EQ(h.Output(), expected) << op;
  }
}

TEST(RelationalOperatorTest, ModeHeldAndZeroCrossing) {
  BlockHarness h("RelationalOperator", {{"op", ">"}}, {1, 1});
  h.Initialize();
  h.SetInputs({1, 2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(-1.0));
  h.SetInputs({3, 2});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(1.0));
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 1.0);
}

}  // namespace
}  // namespace twinblocks::blocks
