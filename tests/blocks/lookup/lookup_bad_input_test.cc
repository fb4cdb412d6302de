// Bad lookup-table parameters through the `twinblocks` program: one line naming file:line,
// the block and what was expected, exit status 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

struct BadLookup {
  const char* name;
  const char* block;  // type and parameters, written on line 4
  const char* says;
};

std::string BadLookupModel(const std::string& block) {
  return "<?xml version=\"1.0\"?>\n"
         "<model name=\"bad_lookup\" format=\"1\">\n"
         "  <block type=\"Constant\" name=\"c\" value=\"0.5\"/>\n"
         "  <block name=\"lut\" " +
         block +
         "/>\n"
         "  <log signal=\"c.y\"/>\n"
         "</model>\n";
}

class LookupBadInput : public ::testing::TestWithParam<BadLookup> {};

TEST_P(LookupBadInput, OneLineWithFileLineAndStatus2) {
  const BadLookup& c = GetParam();
  const auto dir = twinblocks::testing::FreshDirectory("twinblocks_lookup_", c.name);
  twinblocks::testing::WriteText(dir / "bad_table.csv", "x,y\n0,1\n1,one\n");
  const std::string file = std::string(c.name) + ".xml";
  twinblocks::testing::WriteText(dir / file, BadLookupModel(c.block));
  twinblocks::testing::ExpectOneLineBadInput((dir / file).string(), file, 4, {"lut", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, LookupBadInput,
    ::testing::Values(
        BadLookup{"non_monotonic",
                  R"(type="LookupTable" breakpoints="[0, 2, 1]" table="[1, 2, 3]")",
                  "parameter 'breakpoints' must be strictly increasing: breakpoint 3 (1) is not "
                  "above breakpoint 2 (2)"},
        BadLookup{"size_mismatch", R"(type="LookupTable" breakpoints="[0, 1, 2]" table="[1, 2]")",
                  "parameter 'table' has 2 values, but 'breakpoints' has 3"},
        BadLookup{"nan_breakpoint",
                  R"(type="LookupTable" breakpoints="[0, 0/0, 2]" table="[1, 2, 3]")",
                  "parameter 'breakpoints': cannot evaluate '[0, 0/0, 2]': element 2: the result "
                  "is not a number"},
        BadLookup{"infinite_value", R"(type="LookupTable" breakpoints="[0, 1]" table="[1, inf]")",
                  "parameter 'table': value 2 is inf, not a finite number"},
        BadLookup{"unknown_word",
                  R"(type="LookupTable" breakpoints="[0, 1]" table="[1, 2]" interpolation="cubic")",
                  "parameter 'interpolation': unknown word 'cubic'"},
        BadLookup{
            "spline_extrapolation",
            R"(type="LookupTable" breakpoints="[0, 1]" table="[1, 2]" extrapolation="spline")",
            "extrapolation 'spline' needs interpolation 'spline'"},
        BadLookup{"missing_file", R"(type="LookupTable" file="no_such_table.csv")",
                  "no_such_table.csv"},
        BadLookup{"bad_csv", R"(type="LookupTable" file="bad_table.csv")",
                  "bad_table.csv:3: column 2: 'one' is not a finite decimal number"},
        BadLookup{
            "table_2d_shape",
            R"(type="LookupTable2D" breakpoints1="[0, 1]" breakpoints2="[0, 1, 2]" table="[[1, 2], [3, 4]]")",
            "parameter 'table' is 2 x 2, but must be 2 x 3"},
        BadLookup{
            "nd_sizes",
            R"(type="LookupTableND" sizes="[2, 2]" breakpoints="[0, 1, 0, 1]" table="[1, 2, 3]")",
            "parameter 'table' has 3 values, but the grid of 2 x 2 breakpoints has 4 points"},
        BadLookup{"prelookup_repeated", R"(type="Prelookup" breakpoints="[0, 1, 1]")",
                  "parameter 'breakpoints' must be strictly increasing"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks::blocks
