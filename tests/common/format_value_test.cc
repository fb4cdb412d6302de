// Numbers in block messages: the shortest text that reads back to the same double.
#include "common/format_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace twinblocks::blocks {
namespace {

TEST(FormatValueTest, ShortestTextThatReadsBack) {
  EXPECT_EQ(FormatValue(-0.001), "-0.001");  // std::to_string gave -0.001000
  EXPECT_EQ(FormatValue(2.0), "2");
  EXPECT_EQ(FormatValue(1e-5), "1e-05");
  EXPECT_EQ(FormatValue(1e-7), "1e-07");  // to_string gave 0.000000
  EXPECT_EQ(FormatValue(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatValue(-std::nan("")), "nan");
  for (double v : {0.1, 1.0 / 3.0, 6.02214076e23, -2.5e-300}) {
    EXPECT_EQ(std::stod(FormatValue(v)), v) << FormatValue(v);
  }
}

}  // namespace
}  // namespace twinblocks::blocks
