#include "blocks/lookup/lookup_table_nd.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::HasSubstr;

// A 2 x 3 x 2 grid with values v(i, j, k), written first dimension fastest.
double V(int i, int j, int k) { return 1.0 + i + 3.0 * j * j - 2.0 * k + i * j * k; }

std::string GridValues() {
  std::string s = "[";
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 2; ++i) s += (s.size() > 1 ? ", " : "") + std::to_string(V(i, j, k));
    }
  }
  return s + "]";
}

const std::vector<double> kX1 = {0.0, 2.0}, kX2 = {-1.0, 0.0, 4.0}, kX3 = {1.0, 1.5};

testing::ParamTexts Cube() {
  return {
      {"sizes", "[2, 3, 2]"}, {"breakpoints", "[0, 2, -1, 0, 4, 1, 1.5]"}, {"table", GridValues()}};
}

TEST(LookupTableNDTest, TrilinearAgainstTheHandFormula) {
  BlockHarness h("LookupTableND", Cube(), {1, 1, 1});
  ASSERT_EQ(h.block().num_inputs(), 3);
  EXPECT_EQ(h.block().input_port(2).name, "u3");
  h.Initialize();
  for (const std::vector<double>& u : std::vector<std::vector<double>>{
           {0.5, 2.0, 1.1}, {1.5, -0.5, 1.4}, {2.0, 0.0, 1.0}, {0.1, 3.9, 1.25}}) {
    const int j = u[1] < 0.0 ? 0 : 1;
    const double f1 = u[0] / 2.0, f2 = (u[1] - kX2[j]) / (kX2[j + 1] - kX2[j]),
                 f3 = (u[2] - 1.0) / 0.5;
    double hand = 0.0;
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) {
        for (int c = 0; c < 2; ++c) {
          hand += (a ? f1 : 1 - f1) * (b ? f2 : 1 - f2) * (c ? f3 : 1 - f3) * V(a, j + b, c);
        }
      }
    }
    h.SetInputs(u);
    h.MajorStep(0.0);
    EXPECT_NEAR(h.Out(), hand, 1e-13);
  }
}

TEST(LookupTableNDTest, NearestPicksTheGridPointAndReadsRowsFromACsv) {
  auto p = Cube();
  p["interpolation"] = "nearest";
  BlockHarness h("LookupTableND", p, {1, 1, 1});
  EXPECT_EQ(h.block().num_modes(), 3);
  EXPECT_EQ(h.block().num_zero_crossings(), 6);
  h.Initialize();
  h.SetInputs({1.2, 2.1, 1.2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), V(1, 2, 0));
  // The same grid as rows of a CSV file, in a shuffled order.
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream csv(dir + "/ltn_cube.csv");
    csv << "a,b,c,v\n";
    for (int j = 2; j >= 0; --j) {
      for (int k = 0; k < 2; ++k) {
        for (int i = 1; i >= 0; --i) {
          csv << kX1[i] << "," << kX2[j] << "," << kX3[k] << "," << V(i, j, k) << "\n";
        }
      }
    }
  }
  BlockHarness::Options in_dir;
  in_dir.base_dir = dir;
  BlockHarness f("LookupTableND", {{"file", "ltn_cube.csv"}}, {1, 1, 1}, in_dir);
  BlockHarness ref("LookupTableND", Cube(), {1, 1, 1});
  f.Initialize();
  ref.Initialize();
  f.SetInputs({0.7, 1.3, 1.4});
  ref.SetInputs({0.7, 1.3, 1.4});
  f.MajorStep(0.0);
  ref.MajorStep(0.0);
  EXPECT_EQ(f.Out(), ref.Out());
}

TEST(LookupTableNDTest, WithoutSizesIsOneDimensional) {
  BlockHarness h("LookupTableND", {{"breakpoints", "[0, 1]"}, {"table", "[2, 4]"}}, {1});
  h.Initialize();
  h.SetInputs({0.25});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 2.5);
}

TEST(LookupTableNDTest, RefusesCountsThatDoNotMatch) {
  auto error = [](const testing::ParamTexts& p) {
    return std::string(
        testing::CatchBlockError([&] { testing::MakeBlock("LookupTableND", p); }).what());
  };
  auto p = Cube();
  p["breakpoints"] = "[0, 2, -1, 0, 4, 1]";
  EXPECT_THAT(error(p), HasSubstr("parameter 'breakpoints' has 6 values, but 'sizes' asks for "
                                  "2 + 3 + 2 = 7"));
  p = Cube();
  p["table"] = "[1, 2, 3]";
  EXPECT_THAT(error(p), HasSubstr("parameter 'table' has 3 values, but the grid of 2 x 3 x 2 "
                                  "breakpoints has 12 points"));
  p = Cube();
  p["sizes"] = "[2, 1.5, 2]";
  EXPECT_THAT(error(p), HasSubstr("parameter 'sizes': dimension 2 has 1.5 breakpoints"));
  p = Cube();
  p["breakpoints"] = "[0, 2, -1, 4, 0, 1, 1.5]";
  EXPECT_THAT(error(p), HasSubstr("parameter 'breakpoints' (dimension 2) must be strictly "
                                  "increasing"));
}

}  // namespace
}  // namespace twinblocks::blocks
