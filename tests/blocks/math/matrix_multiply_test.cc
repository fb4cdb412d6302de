#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

BlockHarness::Options Shapes(std::vector<SignalShape> shapes) {
  BlockHarness::Options o;
  o.input_shapes = std::move(shapes);
  return o;
}

TEST(MatrixMultiplyTest, MultipliesMatricesRowByRow) {
  // [[1, 2, 3], [4, 5, 6]] * [[7, 8], [9, 10], [11, 12]] = [[58, 64], [139, 154]].
  BlockHarness h("MatrixMultiply", {}, {6, 6},
                 Shapes({SignalShape::Matrix(2, 3), SignalShape::Matrix(3, 2)}));
  EXPECT_EQ(h.block().output_port(0).shape, SignalShape::Matrix(2, 2));
  h.SetInput(0, {1, 2, 3, 4, 5, 6});
  h.SetInput(1, {7, 8, 9, 10, 11, 12});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(58, 64, 139, 154));
}

TEST(MatrixMultiplyTest, VectorsAreColumnsOrALeadingRowAndScalarsScale) {
  // A x with x plain: a column, y plain.
  BlockHarness ax("MatrixMultiply", {{"ops", "***"}}, {4, 2, 1},
                  Shapes({SignalShape::Matrix(2, 2), {}, {}}));
  EXPECT_TRUE(ax.block().output_port(0).shape.is_plain());
  ax.SetInput(0, {1, 2, 3, 4});
  ax.SetInput(1, {5, 6});
  ax.SetInput(2, {0.5});
  ax.MajorStep(0.0);
  EXPECT_THAT(ax.Output(), ElementsAre(0.5 * 17, 0.5 * 39));
  // x A with x plain first: only a row fits, y is 1 x 2.
  BlockHarness xa("MatrixMultiply", {}, {2, 4}, Shapes({{}, SignalShape::Matrix(2, 2)}));
  EXPECT_EQ(xa.block().output_port(0).shape, SignalShape::Matrix(1, 2));
  xa.SetInput(0, {5, 6});
  xa.SetInput(1, {1, 2, 3, 4});
  xa.MajorStep(0.0);
  EXPECT_THAT(xa.Output(), ElementsAre(23, 34));
}

TEST(MatrixMultiplyTest, SlashMultipliesByTheInverse) {
  // inv(A) b solves A y = b: A = [[4, 3], [6, 3]], b = [10, 12] -> y = [1, 2].
  BlockHarness h("MatrixMultiply", {{"ops", "/*"}}, {4, 2},
                 Shapes({SignalShape::Matrix(2, 2), {}}));
  h.SetInput(0, {4, 3, 6, 3});
  h.SetInput(1, {10, 12});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(1, 1e-14), DoubleNear(2, 1e-14)));
  // A single '/' input is its inverse: A A^-1 = I for a 3x3 that needs pivoting.
  BlockHarness inv("MatrixMultiply", {{"ops", "*/"}}, {9, 9},
                   Shapes({SignalShape::Matrix(3, 3), SignalShape::Matrix(3, 3)}));
  const std::vector<double> a = {0, 2, 1, 1, 1, 0, 3, 0, 1};
  inv.SetInput(0, a);
  inv.SetInput(1, a);
  inv.MajorStep(0.0);
  const std::vector<double> y = inv.Output();
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(y[i], i % 4 == 0 ? 1.0 : 0.0, 1e-14) << i;
}

TEST(MatrixMultiplyTest, SingularInverseStopsAtAMajorStepAndGivesNanInside) {
  BlockHarness h("MatrixMultiply", {{"ops", "/"}}, {4}, Shapes({SignalShape::Matrix(2, 2)}));
  h.Initialize();
  h.SetInput(0, {1, 2, 2, 4});
  try {
    h.MajorStep(0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("input 'u1' is singular"));
  }
  h.MinorOutputs(0.1);
  EXPECT_TRUE(std::isnan(h.Out(0, 0)));
}

TEST(MatrixMultiplyTest, DimensionsThatDoNotChainAreRefused) {
  const BlockError e = testing::CatchBlockError([] {
    BlockHarness h("MatrixMultiply", {}, {6, 6},
                   Shapes({SignalShape::Matrix(2, 3), SignalShape::Matrix(2, 3)}));
  });
  EXPECT_THAT(e.what(), HasSubstr("cannot multiply 'u1' (2x3) by 'u2' (2x3)"));
  EXPECT_EQ(e.port(), "u2");
  const BlockError square = testing::CatchBlockError([] {
    BlockHarness h("MatrixMultiply", {{"ops", "/*"}}, {6, 3}, Shapes({SignalShape::Matrix(2, 3)}));
  });
  EXPECT_THAT(square.what(), HasSubstr("must be square, got 2x3"));
  EXPECT_EQ(testing::CatchBlockError([] {
              testing::MakeBlock("MatrixMultiply", {{"ops", "*x"}});
            }).param(),
            "ops");
}

}  // namespace
}  // namespace twinblocks::blocks
