// Bad parameters and inputs of the delays, through the command line: one line with file:line
// and the block, exit status 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

struct BadDelay {
  const char* name;
  const char* block;  ///< the block element's attributes, named "b", on line 5
  const char* says;
};

std::string Model(const std::string& block) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="bad_delay" format="1">
  <simulation solver="ode45" t_end="1"/>
  <block type="Sine" name="u"/>
  <block name="b" )" +
         block + R"(/>
  <block type="Constant" name="d" value="[0.1, 0.2]"/>
  <connect from="u.y" to="b.u"/>
</model>
)";
}

class DelayBadInput : public ::testing::TestWithParam<BadDelay> {};

TEST_P(DelayBadInput, OneLineWithFileLineAndStatus2) {
  const BadDelay& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_bad_delay_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  std::string model = Model(c.block);
  // VariableTransportDelay's delay input, from the two-element constant.
  if (std::string(c.block).find("VariableTransportDelay") != std::string::npos) {
    model.insert(model.find("</model>"), "  <connect from=\"d.y\" to=\"b.d\"/>\n");
  }
  testing::WriteText(dir / file, model);
  testing::ExpectOneLineBadInput((dir / file).string(), file, 5, {"'b'", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, DelayBadInput,
    ::testing::Values(BadDelay{"negative_delay", R"(type="TransportDelay" delay="-1")",
                               "parameter 'delay' must be a finite time >= 0 s"},
                      BadDelay{"small_buffer", R"(type="TransportDelay" buffer_size="5")",
                               "parameter 'buffer_size' must be a whole number of samples from 6"},
                      BadDelay{"fractional_buffer", R"(type="TransportDelay" buffer_size="100.5")",
                               "parameter 'buffer_size' must be a whole number"},
                      BadDelay{"infinite_initial_output",
                               R"(type="TransportDelay" initial_output="[1, inf]")",
                               "parameter 'initial_output' must be finite"},
                      BadDelay{"zero_max_delay", R"(type="VariableTransportDelay" max_delay="0")",
                               "parameter 'max_delay' must be a finite time > 0 s"},
                      BadDelay{"delay_width",
                               R"(type="VariableTransportDelay" initial_output="[1, 2, 3]")",
                               "input 'd' has width 2, expected 1 or 3"},
                      BadDelay{"memory_width", R"(type="Memory" initial_condition="[]")",
                               "parameter 'initial_condition' is empty"},
                      BadDelay{"memory_inherit", R"(type="Memory" inherit_sample_time="yes")",
                               "inherit_sample_time"}),
    [](const ::testing::TestParamInfo<BadDelay>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks
