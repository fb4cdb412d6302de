// Every math and matrix block refuses a bad parameter or input through the command line: one
// line naming the file and the block's line, exit status 2, from `check` and from `run`.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

struct BadBlock {
  const char* name;
  const char* block;     ///< the block under test, named b, on line 5
  const char* connects;  ///< its lines, from c (a 2x2 matrix) and v (a 2-vector)
  const char* says;
};

class MathBlocksBadInput : public ::testing::TestWithParam<BadBlock> {};

TEST_P(MathBlocksBadInput, OneLineWithTheBlocksPlace) {
  const BadBlock& c = GetParam();
  const auto dir = twinblocks::testing::FreshDirectory("twinblocks_math_bad_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  twinblocks::testing::WriteText(dir / file, std::string(R"(<?xml version="1.0"?>
<model name="bad" format="1">
  <block type="Constant" name="c" value="[[1, 2], [3, 4]]"/>
  <block type="Constant" name="v" value="[1, 2]"/>
  )") + c.block + "\n  " + c.connects + "\n</model>\n");
  twinblocks::testing::ExpectOneLineBadInput((dir / file).string(), file, 5, {"'b'", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryBlock, MathBlocksBadInput,
    ::testing::Values(
        BadBlock{"trig_function",
                 R"(<block type="TrigonometricFunction" name="b" function="sec"/>)",
                 R"(<connect from="v.y" to="b.u"/>)", "function"},
        BadBlock{"math_function", R"(<block type="MathFunction" name="b" function="cbrt"/>)",
                 R"(<connect from="v.y" to="b.u"/>)", "function"},
        BadBlock{"rounding_function", R"(<block type="Rounding" name="b" function="trunc"/>)",
                 R"(<connect from="v.y" to="b.u"/>)", "function"},
        BadBlock{"matrix_multiply_ops", R"(<block type="MatrixMultiply" name="b" ops="*x"/>)",
                 R"(<connect from="c.y" to="b.u1"/>)", "parameter 'ops' may hold only"},
        BadBlock{"matrix_multiply_dims", R"(<block type="MatrixMultiply" name="b" ops="**"/>)",
                 R"(<block type="Constant" name="w" value="[1, 2, 3]"/>)"
                 R"(<connect from="c.y" to="b.u1"/><connect from="w.y" to="b.u2"/>)",
                 "cannot multiply 'u1' (2x2) by 'u2' (3x1)"},
        BadBlock{"matrix_multiply_inverse", R"(<block type="MatrixMultiply" name="b" ops="/"/>)",
                 R"(<connect from="v.y" to="b.u1"/>)", "must be square, got 2x1 (a vector)"},
        BadBlock{"transpose_parameter", R"(<block type="Transpose" name="b" k="2"/>)",
                 R"(<connect from="c.y" to="b.u"/>)", "'k'"},
        BadBlock{"cross_product_width", R"(<block type="CrossProduct" name="b"/>)",
                 R"(<connect from="v.y" to="b.u1"/><connect from="v.y" to="b.u2"/>)",
                 "input 'u1' has width 2, expected 3"},
        BadBlock{"dot_product_matrix", R"(<block type="DotProduct" name="b"/>)",
                 R"(<connect from="c.y" to="b.u1"/><connect from="c.y" to="b.u2"/>)",
                 "the dot product takes vectors"},
        BadBlock{"reshape_dimensions",
                 R"(<block type="Reshape" name="b" output="custom" dimensions="[2, 0]"/>)",
                 R"(<connect from="c.y" to="b.u"/>)", "whole numbers >= 1"},
        BadBlock{"reshape_size",
                 R"(<block type="Reshape" name="b" output="custom" dimensions="[3, 1]"/>)",
                 R"(<connect from="c.y" to="b.u"/>)",
                 "holds 3 elements, but input 'u' has width 4"},
        BadBlock{"concatenate_dimension", R"(<block type="Concatenate" name="b" dimension="3"/>)",
                 R"(<connect from="c.y" to="b.u1"/><connect from="v.y" to="b.u2"/>)",
                 "parameter 'dimension' must be 1"},
        BadBlock{"concatenate_rows",
                 R"(<block type="Concatenate" name="b" mode="multidimensional" dimension="1"/>)",
                 R"(<connect from="c.y" to="b.u1"/><connect from="v.y" to="b.u2"/>)",
                 "need equal column counts"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks::blocks
