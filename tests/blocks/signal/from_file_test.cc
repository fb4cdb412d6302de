#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Writes `text` to a file in the test's temporary directory and returns its directory.
std::string WriteCsv(const std::string& name, const std::string& text) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/" + name) << text;
  return dir;
}

BlockHarness::Options InDir(const std::string& dir) {
  BlockHarness::Options o;
  o.base_dir = dir;
  return o;
}

TEST(FromFileTest, LinearInterpolationAndHold) {
  const std::string dir = WriteCsv("ff_linear.csv", "time,a,b\n0,0,10\n1,2,10\n3,2,-10\n");
  BlockHarness h("FromFile", {{"file", "ff_linear.csv"}}, {}, InDir(dir));
  ASSERT_EQ(h.block().output_port(0).width, 2);
  h.Initialize(0.0);
  h.MajorStep(0.5);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 10.0));
  h.MinorOutputs(2.0);
  EXPECT_THAT(h.Output(), ElementsAre(2.0, 0.0));
  h.MajorStep(5.0);  // held after the data
  EXPECT_THAT(h.Output(), ElementsAre(2.0, -10.0));
  h.MajorStep(-1.0);  // and before it
  EXPECT_THAT(h.Output(), ElementsAre(0.0, 10.0));
  EXPECT_TRUE(std::isinf(h.NextBreakpoint(0.0)) || !h.block().has_breakpoints());
  EXPECT_TRUE(h.block().depends_on_time());  // linear between rows: ode23s forms df/dt
}

TEST(FromFileTest, ZohHoldsRowsWithBreakpoints) {
  const std::string dir = WriteCsv("ff_zoh.csv", "t,y\n0,1\n0.5,2\n1.5,3\n");
  BlockHarness h("FromFile", {{"file", "ff_zoh.csv"}, {"interpolation", "zoh"}}, {}, InDir(dir));
  EXPECT_TRUE(h.block().has_breakpoints());
  h.Initialize(0.0);
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 1.0);
  EXPECT_EQ(h.NextBreakpoint(0.0), 0.5);
  EXPECT_EQ(h.NextBreakpoint(0.5), 1.5);
  EXPECT_TRUE(std::isinf(h.NextBreakpoint(1.5)));
  h.MinorOutputs(0.5);  // a stage on the data time still holds the previous row
  EXPECT_EQ(h.Out(), 1.0);
  h.MajorStep(0.5);
  EXPECT_EQ(h.Out(), 2.0);
  h.MajorStep(1.0);
  EXPECT_EQ(h.Out(), 2.0);
  h.MajorStep(9.0);
  EXPECT_EQ(h.Out(), 3.0);
  EXPECT_FALSE(h.block().depends_on_time());  // constant between breakpoints
}

TEST(FromFileTest, ErrorExtrapolationNamesTimeAndRange) {
  const std::string dir = WriteCsv("ff_err.csv", "t,y\n1,1\n2,2\n");
  BlockHarness h("FromFile", {{"file", dir + "/ff_err.csv"}, {"extrapolation", "error"}}, {});
  h.Initialize(1.0);
  h.MajorStep(1.5);
  EXPECT_DOUBLE_EQ(h.Out(), 1.5);
  const BlockError e = testing::CatchBlockError([&] { h.MajorStep(2.5); });
  EXPECT_THAT(e.what(), HasSubstr("2.5"));
  EXPECT_THAT(e.what(), HasSubstr("1 to 2"));
}

TEST(FromFileTest, ParseErrorsNameFileAndLine) {
  const std::string dir = WriteCsv("ff_bad.csv", "t,y\n0,1\n0.5,abc\n");
  const BlockError e = testing::CatchBlockError([&] {
    testing::MakeBlock("FromFile", {{"file", "ff_bad.csv"}}, dir);
  });
  EXPECT_THAT(e.what(), HasSubstr("ff_bad.csv:3"));
  EXPECT_THAT(e.what(), HasSubstr("abc"));
  EXPECT_EQ(e.param(), "file");

  WriteCsv("ff_order.csv", "t,y\n0,1\n0,2\n");
  EXPECT_THAT(testing::CatchBlockError([&] {
                testing::MakeBlock("FromFile", {{"file", "ff_order.csv"}}, dir);
              }).what(),
              HasSubstr("ff_order.csv:3"));
  WriteCsv("ff_cols.csv", "t,y\n0,1\n1,2,3\n");
  EXPECT_THAT(testing::CatchBlockError([&] {
                testing::MakeBlock("FromFile", {{"file", "ff_cols.csv"}}, dir);
              }).what(),
              HasSubstr("ff_cols.csv:3"));
}

TEST(FromFileTest, MissingFileIsAnError) {
  const BlockError e = testing::CatchBlockError([] {
    testing::MakeBlock("FromFile", {{"file", "/nonexistent/none.csv"}});
  });
  EXPECT_THAT(e.what(), HasSubstr("/nonexistent/none.csv"));
  EXPECT_EQ(e.param(), "file");
}

}  // namespace
}  // namespace twinblocks::blocks
