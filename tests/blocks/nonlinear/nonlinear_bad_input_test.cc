// Bad parameters of the discontinuities, through the command line: one line with file:line
// and the block, exit status 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

struct BadNonlinear {
  const char* name;
  const char* block;  ///< the block element's attributes, named "b", on line 5
  const char* says;
};

std::string Model(const std::string& block) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="bad_nonlinear" format="1">
  <simulation solver="ode45" t_end="1"/>
  <block type="Sine" name="u" amplitude="[1, 2, 3]"/>
  <block name="b" )" +
         block + R"(/>
  <connect from="u.y" to="b.u"/>
</model>
)";
}

class NonlinearBadInput : public ::testing::TestWithParam<BadNonlinear> {};

TEST_P(NonlinearBadInput, OneLineWithFileLineAndStatus2) {
  const BadNonlinear& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_bad_nonlinear_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  testing::WriteText(dir / file, Model(c.block));
  testing::ExpectOneLineBadInput((dir / file).string(), file, 5, {"'b'", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, NonlinearBadInput,
    ::testing::Values(
        BadNonlinear{"negative_rising", R"(type="RateLimiter" rising="-1")",
                     "parameter 'rising' must be a rate >= 0"},
        BadNonlinear{"positive_falling", R"(type="RateLimiter" falling="0.5")",
                     "parameter 'falling' must be a rate <= 0"},
        BadNonlinear{"zero_ts", R"(type="RateLimiter" Ts="-2")",
                     "parameter 'Ts' must be a positive sample time"},
        BadNonlinear{"rates_width", R"(type="RateLimiter" rising="[1, 2]")",
                     "parameter 'rising' has 2 elements, but input 'u' has width 3"},
        BadNonlinear{"negative_deadband", R"(type="Backlash" deadband_width="-0.1")",
                     "parameter 'deadband_width' must be finite and >= 0"},
        BadNonlinear{"zero_interval", R"(type="Quantizer" interval="0")",
                     "parameter 'interval' must be finite and > 0"},
        BadNonlinear{"relay_points", R"(type="Relay" on_switch_point="-1" off_switch_point="1")",
                     "parameter 'on_switch_point' must be >= 'off_switch_point'"},
        BadNonlinear{"relay_values", R"(type="Relay" on_value="inf")",
                     "parameter 'on_value' must be finite"},
        BadNonlinear{"hit_direction", R"(type="HitCrossing" direction="up")", "direction"},
        BadNonlinear{"friction_widths",
                     R"(type="CoulombViscousFriction" offset="[1, 2]" gain="[1, 2, 3]")",
                     "parameter 'gain' has 3 elements, but another parameter has 2"}),
    [](const ::testing::TestParamInfo<BadNonlinear>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace twinblocks
