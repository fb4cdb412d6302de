#include "blocks/lookup/lookup_table_2d.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Rows at u1 = 0, 1, 3; columns at u2 = 10, 20.
const testing::ParamTexts kMap = {{"breakpoints1", "[0, 1, 3]"},
                                  {"breakpoints2", "[10, 20]"},
                                  {"table", "[[1, 2], [4, -1], [0.5, 3]]"}};

// The bilinear formula written out for the cell (i, k) at fractions f1, f2.
double Bilinear(double t00, double t10, double t01, double t11, double f1, double f2) {
  return (1 - f1) * (1 - f2) * t00 + f1 * (1 - f2) * t10 + (1 - f1) * f2 * t01 + f1 * f2 * t11;
}

TEST(LookupTable2DTest, BilinearAgainstTheHandFormulaWithScalarExpansion) {
  BlockHarness h("LookupTable2D", kMap, {3, 1});
  ASSERT_EQ(h.block().output_port(0).width, 3);
  h.Initialize();
  h.SetInput(0, {0.25, 2.0, 1.0});
  h.SetInput(1, {12.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(Bilinear(1, 4, 2, -1, 0.25, 0.2), 1e-15),
                                      DoubleNear(Bilinear(4, 0.5, -1, 3, 0.5, 0.2), 1e-15),
                                      DoubleNear(Bilinear(4, 0.5, -1, 3, 0.0, 0.2), 1e-15)));
  h.SetInput(0, {-1.0, 5.0, 3.0});  // linear extrapolation along u1, clip would hold
  h.SetInput(1, {25.0});
  h.MajorStep(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(Bilinear(1, 4, 2, -1, -1.0, 1.5), 1e-14),
                                      DoubleNear(Bilinear(4, 0.5, -1, 3, 2.0, 1.5), 1e-14),
                                      DoubleNear(Bilinear(4, 0.5, -1, 3, 1.0, 1.5), 1e-14)));
}

TEST(LookupTable2DTest, FlatCellsPerInputAreModesWithTwoZeroCrossingsEach) {
  auto p = kMap;
  p["interpolation"] = "flat";
  BlockHarness h("LookupTable2D", p, {1, 1});
  EXPECT_EQ(h.block().num_modes(), 2);
  EXPECT_EQ(h.block().num_zero_crossings(), 4);
  h.Initialize();
  h.SetInputs({1.5, 19.0});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 4.0);
  h.SetInputs({1.5, 21.0});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 4.0);
  EXPECT_THAT(h.ZeroCrossings(), ElementsAre(0.5, -1.5, 1.0, 1.0));  // u2 - 20 crossed
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), -1.0);
}

TEST(LookupTable2DTest, ReadsAMatrixCsv) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/lt2_map.csv") << "u1\\u2,10,20\n0,1,2\n1,4,-1\n3,0.5,3\n";
  BlockHarness::Options in_dir;
  in_dir.base_dir = dir;
  BlockHarness h("LookupTable2D", {{"file", "lt2_map.csv"}}, {1, 1}, in_dir);
  BlockHarness ref("LookupTable2D", kMap, {1, 1});
  h.Initialize();
  ref.Initialize();
  for (const auto& [u1, u2] : std::vector<std::pair<double, double>>{{0.3, 11}, {2.2, 17}}) {
    h.SetInputs({u1, u2});
    ref.SetInputs({u1, u2});
    h.MajorStep(0.0);
    ref.MajorStep(0.0);
    EXPECT_EQ(h.Out(), ref.Out());
  }
}

TEST(LookupTable2DTest, RefusesATableOfTheWrongShape) {
  auto p = kMap;
  p["table"] = "[[1, 4, 0.5], [2, -1, 3]]";  // transposed
  EXPECT_THAT(testing::CatchBlockError([&] { testing::MakeBlock("LookupTable2D", p); }).what(),
              HasSubstr("parameter 'table' is 2 x 3, but must be 3 x 2: a row per breakpoint "
                        "of u1"));
  p = kMap;
  p["breakpoints2"] = "[20, 10]";
  EXPECT_EQ(testing::CatchBlockError([&] { testing::MakeBlock("LookupTable2D", p); }).param(),
            "breakpoints2");
}

}  // namespace
}  // namespace twinblocks::blocks
