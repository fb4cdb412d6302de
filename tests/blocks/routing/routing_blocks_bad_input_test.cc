// MultiportSwitch, BusCreator and BusSelector refuse a bad parameter or input through the
// command line: one line naming the file and the block's line, exit status 2, from `check` and
// from `run`.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

struct BadBlock {
  const char* name;
  const char* block;     ///< the block under test, named b, on line 5
  const char* connects;  ///< its lines, from v (a 2-vector) and the bus `bus` (pos, vel)
  const char* says;
};

class RoutingBlocksBadInput : public ::testing::TestWithParam<BadBlock> {};

TEST_P(RoutingBlocksBadInput, OneLineWithTheBlocksPlace) {
  const BadBlock& c = GetParam();
  const auto dir = twinblocks::testing::FreshDirectory("twinblocks_routing_bad_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  twinblocks::testing::WriteText(dir / file, std::string(R"(<?xml version="1.0"?>
<model name="bad" format="1">
  <block type="Constant" name="v" value="[1, 2]"/>
  <block type="BusCreator" name="bus" names="pos, vel"/>
  )") + c.block + "\n  " + c.connects +
                                                 R"(
  <connect from="v.y" to="bus.u1"/><connect from="v.y" to="bus.u2"/>
</model>
)");
  twinblocks::testing::ExpectOneLineBadInput((dir / file).string(), file, 5, {"'b'", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryBlock, RoutingBlocksBadInput,
    ::testing::Values(
        BadBlock{"switch_inputs", R"(<block type="MultiportSwitch" name="b" inputs="0"/>)", "",
                 "parameter 'inputs' must be at least 1"},
        BadBlock{"switch_order", R"(<block type="MultiportSwitch" name="b" order="two_based"/>)",
                 "", "order"},
        BadBlock{"switch_widths", R"(<block type="MultiportSwitch" name="b"/>)",
                 R"(<connect from="v.y" to="b.control"/><connect from="v.y" to="b.u1"/>)"
                 R"(<connect from="v.y" to="b.u2"/>)",
                 "input 'control' has width 2, expected 1"},
        BadBlock{"creator_names", R"(<block type="BusCreator" name="b" names="pos, 2x"/>)", "",
                 "'2x' is not a signal name"},
        BadBlock{"selector_required", R"(<block type="BusSelector" name="b"/>)", "", "signals"},
        BadBlock{"selector_unknown", R"(<block type="BusSelector" name="b" signals="vel, acc"/>)",
                 R"(<connect from="bus.y" to="b.u"/>)",
                 "asks for 'acc', which the bus does not have; the bus has: pos, vel"},
        BadBlock{"selector_misspelt", R"(<block type="BusSelector" name="b" signals="pso"/>)",
                 R"(<connect from="bus.y" to="b.u"/>)", "did you mean 'pos'?"},
        BadBlock{"selector_no_bus", R"(<block type="BusSelector" name="b" signals="pos"/>)",
                 R"(<connect from="v.y" to="b.u"/>)", "input 'u' is no bus"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks::blocks
