// Bad parameters of the discrete blocks and of the PIDs' limits and anti-windup, through the
// command line: for `check` and `run`, one line with file:line, the block and what was
// expected, exit status 2.

#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

struct BadBlock {
  const char* name;
  const char* block;  ///< the block element's attributes after `name="c"`
  const char* input;  ///< the input port the Constant drives
  const char* says;
};

/// A Constant into the block under test, written on line 5.
std::string BadModel(const BadBlock& c) {
  return std::string(R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="bad_discrete" format="1">
  <simulation solver="ode3" step="0.1" t_end="1"/>
  <block type="Constant" name="k" value="1"/>
  <block name="c" )") +
         c.block + R"(/>
  <connect from="k.y" to="c.)" +
         c.input + R"("/>
</model>
)";
}

class DiscreteBadInput : public ::testing::TestWithParam<BadBlock> {};

TEST_P(DiscreteBadInput, OneLineWithFileLineAndStatus2) {
  const BadBlock& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_discrete_bad_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  testing::WriteText(dir / file, BadModel(c));
  testing::ExpectOneLineBadInput((dir / file).string(), file, 5, {"c", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, DiscreteBadInput,
    ::testing::Values(
        BadBlock{"integrator_limits", R"(type="DiscreteIntegrator" Ts="0.1" lower="1" upper="0")",
                 "u", "parameter 'lower' must be at most 'upper'"},
        BadBlock{"integrator_method", R"(type="DiscreteIntegrator" Ts="0.1" method="euler")", "u",
                 "method"},
        BadBlock{"transfer_function_improper",
                 R"(type="DiscreteTransferFunction" Ts="0.1" num="[1, 2, 3]" den="[1, 2]")", "u",
                 "improper"},
        BadBlock{"transfer_function_leading_zero",
                 R"(type="DiscreteTransferFunction" Ts="0.1" den="[0, 1, 2]")", "u",
                 "parameter 'den' must start with a nonzero coefficient"},
        BadBlock{"filter_a0_zero", R"(type="DiscreteFilter" Ts="0.1" den="[0, 1]")", "u",
                 "parameter 'den' must start with a nonzero coefficient"},
        BadBlock{"state_space_sizes",
                 R"(type="DiscreteStateSpace" Ts="0.1" A="[[1, 0], [0, 1]]" B="[[1, 2, 3]]")", "u",
                 "B must have 2 rows"},
        BadBlock{"derivative_gain", R"(type="DiscreteDerivative" Ts="0.1" K="inf")", "u",
                 "parameter 'K' must be a finite gain"},
        BadBlock{"pid_anti_windup_without_limits",
                 R"(type="DiscretePID" Ts="0.1" Ki="1" anti_windup="clamping")", "e",
                 "needs output limits"},
        BadBlock{"pid_unfiltered_forward_derivative",
                 R"(type="DiscretePID" Ts="0.1" Kd="1" filter_method="forward-euler")", "e",
                 "needs a finite derivative filter coefficient N"},
        BadBlock{"pid_2dof_weight", R"(type="DiscretePID2DOF" Ts="0.1" b="inf")", "r",
                 "parameter 'b' must be a finite weight"},
        BadBlock{"continuous_pid_without_integral",
                 R"(type="PID" upper="1" anti_windup="back-calculation")", "e",
                 "needs an integral term"},
        BadBlock{"continuous_pid_limits", R"(type="PID2DOF" lower="2" upper="1")", "r",
                 "parameter 'lower' must be below 'upper'"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks
