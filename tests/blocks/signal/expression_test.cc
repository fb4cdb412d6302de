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

TEST(ExpressionTest, InputsTimeAndVariables) {
  BlockHarness::Options o;
  o.variables = {{"k", 3.0}, {"t", 99.0}};  // a model variable named t is shadowed by time
  BlockHarness h("Expression", {{"expr", "k*u1 + u2^2 + t"}, {"inputs", "2"}}, {1, 1}, o);
  h.Initialize();
  h.SetInputs({2, 3});
  h.MajorStep(0.5);
  EXPECT_DOUBLE_EQ(h.Out(), 3 * 2 + 9 + 0.5);
}

TEST(ExpressionTest, ElementwiseWithScalarExpansion) {
  BlockHarness h("Expression", {{"expr", "u1 * u2 + sin(0)"}, {"inputs", "2"}}, {3, 1});
  ASSERT_EQ(h.block().output_port(0).width, 3);
  h.SetInput(0, {1, 2, 3});
  h.SetInput(1, {10});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(10.0, 20.0, 30.0));
}

TEST(ExpressionTest, SingleInputMayBeCalledU) {
  BlockHarness h("Expression", {{"expr", "2*u"}}, {1});
  h.SetInput(0, {4});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 8.0);
}

TEST(ExpressionTest, BadExpressionIsAnErrorAtConstruction) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("Expression", {{"expr", "u1 + * 2"}});
  });
  EXPECT_EQ(e.param(), "expr");
  const BlockError unknown = testing::CatchBlockError([] {
    testing::MakeBlock("Expression", {{"expr", "u1 + q"}});
  });
  EXPECT_EQ(unknown.param(), "expr");
  EXPECT_THAT(unknown.what(), HasSubstr("q"));
  // u2 does not exist with one input.
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("Expression", {{"expr", "u2"}});
            }).param(),
            "expr");
}

TEST(ExpressionTest, EachWorkspaceEvaluatesIndependently) {
  BlockHarness a("Expression", {{"expr", "u1 + 1"}}, {1});
  BlockHarness b("Expression", {{"expr", "u1 + 1"}}, {1});
  a.SetInput(0, {1});
  b.SetInput(0, {10});
  a.MajorStep(0.0);
  b.MajorStep(0.0);
  EXPECT_EQ(a.Out(), 2.0);
  EXPECT_EQ(b.Out(), 11.0);
}

}  // namespace
}  // namespace twinblocks::blocks
