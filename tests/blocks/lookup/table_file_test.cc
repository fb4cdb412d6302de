#include "blocks/lookup/detail/table_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "blocks/block_error.h"
#include "common/input_limits.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks::lookup {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string WriteTableCsv(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string RowsError(const std::string& name, const std::string& text, int dimensions) {
  const std::string path = WriteTableCsv(name, text);
  return testing::CatchBlockError([&] { ReadTableRows(path, dimensions); }).what();
}

TEST(TableFileTest, RowsInAnyOrderFillTheGridFirstDimensionFastest) {
  const std::string path =
      WriteTableCsv("tf_rows.csv",
                    "speed, torque, eta\n2,10,0.8\n1,10,0.7\r\n\n1,20,0.75\n2,20,0.9\n3,10,0.6\n"
                    "3,20,0.65\n");
  const TableData t = ReadTableRows(path, 0);
  ASSERT_EQ(t.breakpoints.size(), 2u);
  EXPECT_THAT(t.breakpoints[0], ElementsAre(1.0, 2.0, 3.0));
  EXPECT_THAT(t.breakpoints[1], ElementsAre(10.0, 20.0));
  EXPECT_THAT(t.values, ElementsAre(0.7, 0.8, 0.6, 0.75, 0.9, 0.65));
  const TableData one = ReadTableRows(WriteTableCsv("tf_1d.csv", "x,y\n0.5,1\n-1,2\n"), 1);
  EXPECT_THAT(one.breakpoints[0], ElementsAre(-1.0, 0.5));
  EXPECT_THAT(one.values, ElementsAre(2.0, 1.0));
}

TEST(TableFileTest, MatrixLayoutGivesRowsAlongU1) {
  const std::string path =
      WriteTableCsv("tf_matrix.csv", "w \\ tau, 0, 5, 10\n0, 1, 2, 3\n100, 4, 5, 6\n");
  const TableData t = ReadTableMatrix(path);
  EXPECT_THAT(t.breakpoints[0], ElementsAre(0.0, 100.0));
  EXPECT_THAT(t.breakpoints[1], ElementsAre(0.0, 5.0, 10.0));
  EXPECT_THAT(t.values, ElementsAre(1.0, 4.0, 2.0, 5.0, 3.0, 6.0));
}

TEST(TableFileTest, BadFilesSayWhereAndWhy) {
  EXPECT_THAT(RowsError("tf_dup.csv", "x,y,v\n0,0,1\n1,0,2\n0,1,3\n0,0,4\n", 2),
              HasSubstr("tf_dup.csv:5: the point (0, 0) appears twice (first on line 2)"));
  EXPECT_THAT(RowsError("tf_hole.csv", "x,y,v\n0,0,1\n1,0,2\n0,1,3\n", 2),
              HasSubstr("the rows do not fill a grid: the input columns hold 2 x 2 distinct "
                        "values"));
  EXPECT_THAT(RowsError("tf_nan.csv", "x,y\n0,1\n1,nan\n", 1),
              HasSubstr("tf_nan.csv:3: column 2: 'nan' is not a finite decimal number"));
  EXPECT_THAT(RowsError("tf_hex.csv", "x,y\n0x10,1\n1,2\n", 1), HasSubstr("'0x10'"));
  EXPECT_THAT(RowsError("tf_cols.csv", "x,y\n0,1\n1,2,3\n", 1),
              HasSubstr("tf_cols.csv:3: expected 2 values (as in the header), got 3"));
  EXPECT_THAT(RowsError("tf_header.csv", "x,y,z\n0,1,2\n", 1),
              HasSubstr("tf_header.csv:1: the header must name 1 input column and one output "
                        "column, got 3 columns"));
  EXPECT_THAT(RowsError("tf_one.csv", "x,y\n0,1\n0,2\n", 1),
              HasSubstr("column 1 ('x') holds one value only"));
  EXPECT_THAT(RowsError("tf_empty.csv", "\n\n", 1), HasSubstr("tf_empty.csv:1: the file is empty"));
  EXPECT_THAT(RowsError("tf_norows.csv", "x,y\n", 1), HasSubstr("no data rows after the header"));
  EXPECT_THAT(testing::CatchBlockError([] { ReadTableRows("/nonexistent/t.csv", 1); }).what(),
              HasSubstr("cannot read '/nonexistent/t.csv'"));
  EXPECT_EQ(testing::CatchBlockError([] { ReadTableRows(::testing::TempDir(), 1); }).param(),
            "file");  // a directory
  const std::string bad_matrix = WriteTableCsv("tf_bad_matrix.csv", ",0,5\n1,1,2\n0,3,4\n");
  EXPECT_THAT(testing::CatchBlockError([&] { ReadTableMatrix(bad_matrix); }).what(),
              HasSubstr("tf_bad_matrix.csv:3: the breakpoints of u1 (first column) must be "
                        "strictly increasing: 0 is not above 1"));
  const std::string short_matrix = WriteTableCsv("tf_short_matrix.csv", ",0,5\n1,1,2\n");
  EXPECT_THAT(testing::CatchBlockError([&] { ReadTableMatrix(short_matrix); }).what(),
              HasSubstr("a table needs at least 2 rows"));
}

TEST(TableFileTest, ATableOverTheValueLimitIsRefusedBeforeItGrows) {
  const InputLimits saved = CurrentInputLimits();
  InputLimits small = saved;
  small.block_values = 5;
  SetInputLimits(small);
  const std::string msg = RowsError("tf_big.csv", "x,y\n0,1\n1,2\n2,3\n3,4\n", 1);
  SetInputLimits(saved);
  EXPECT_THAT(msg, HasSubstr("the table holds more than 5 values"));
  EXPECT_THAT(msg, HasSubstr("--limit block_values"));
}

}  // namespace
}  // namespace twinblocks::blocks::lookup
