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

TEST(LogicalOperatorTest, TruthTables) {
  // Inputs a = [0, 0, 1, 1], b = [0, 1, 0, 1] (non-zero is true).
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {{"AND", {0, 0, 0, 1}},
                                                                          {"OR", {0, 1, 1, 1}},
                                                                          {"NAND", {1, 1, 1, 0}},
                                                                          {"NOR", {1, 0, 0, 0}},
                                                                          {"XOR", {0, 1, 1, 0}}};
  for (const auto& [op, expected] : cases) {
    BlockHarness h("LogicalOperator", {{"op", op}}, {4, 4});
    h.SetInput(0, {0, 0, 2, -1});
    h.SetInput(1, {0, 0.5, 0, 1});
    h.MajorStep(0.0);
    EXPECT_EQ(h.Output(), expected) << op;
  }
}

TEST(LogicalOperatorTest, NotHasOneInput) {
  BlockHarness h("LogicalOperator", {{"op", "NOT"}}, {3});
  EXPECT_EQ(h.block().num_inputs(), 1);
  h.SetInput(0, {0, 1, -3});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 0.0, 0.0));
}

TEST(LogicalOperatorTest, OneInputReducesOverElements) {
  BlockHarness h("LogicalOperator", {{"op", "OR"}, {"inputs", "1"}}, {3});
  ASSERT_EQ(h.block().output_port(0).width, 1);
  h.SetInput(0, {0, 0, 1});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.0);
  BlockHarness x("LogicalOperator", {{"op", "XOR"}, {"inputs", "3"}}, {1, 1, 1});
  x.SetInputs({1, 1, 1});
  x.MajorStep(0.0);
  EXPECT_EQ(x.Out(), 1.0);
}

}  // namespace
}  // namespace twinblocks::blocks
