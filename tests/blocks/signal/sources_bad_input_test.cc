// Every source, sink and verification block of this folder refuses a bad parameter through the
// command line as any block does: one line with file:line, the block and what was expected,
// exit status 2 (from both `check` and `run`).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

struct BadBlock {
  const char* name;   ///< the test's name
  const char* block;  ///< the <block .../> element, on line 4 of the model
  const char* says;   ///< a phrase of the message
};

void PrintTo(const BadBlock& c, std::ostream* os) { *os << c.name; }

std::string BadSourceModel(const char* block) {
  return std::string(R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="bad" format="1">
  <simulation solver="ode45" t_end="1"/>
  )") + block +
         R"(
</model>
)";
}

class SourceBlocksBadInput : public ::testing::TestWithParam<BadBlock> {};

TEST_P(SourceBlocksBadInput, OneLineWithFileLineAndStatus2) {
  const BadBlock& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_sources_bad_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  testing::WriteText(dir / file, BadSourceModel(c.block));
  testing::ExpectOneLineBadInput((dir / file).string(), file, 4, {"b", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryBlock, SourceBlocksBadInput,
    ::testing::Values(
        BadBlock{"RandomNumber", R"(<block type="RandomNumber" name="b" variance="-2"/>)",
                 "parameter 'variance' must be finite and >= 0"},
        BadBlock{"RandomNumberSeed", R"(<block type="RandomNumber" name="b" seed="0.5"/>)",
                 "parameter 'seed' must hold whole numbers in [0, 2^53]"},
        BadBlock{"UniformRandomNumber",
                 R"(<block type="UniformRandomNumber" name="b" minimum="2" maximum="1"/>)",
                 "parameter 'maximum' must be >= 'minimum'"},
        BadBlock{"BandLimitedWhiteNoise",
                 R"(<block type="BandLimitedWhiteNoise" name="b" Ts="0"/>)",
                 "parameter 'Ts' must be a positive, finite sample time in s"},
        BadBlock{"Chirp", R"(<block type="Chirp" name="b" target_time="-1"/>)",
                 "parameter 'target_time' must be positive and finite, in s"},
        BadBlock{"SignalGenerator", R"(<block type="SignalGenerator" name="b" frequency="-3"/>)",
                 "parameter 'frequency' must be positive and finite, in rad/s"},
        BadBlock{"SignalGeneratorWaveform",
                 R"(<block type="SignalGenerator" name="b" waveform="triangle"/>)", "triangle"},
        BadBlock{
            "RepeatingSequence",
            R"(<block type="RepeatingSequence" name="b" time="[0, 2, 1]" values="[0, 1, 2]"/>)",
            "parameter 'time' must increase strictly"},
        BadBlock{
            "FromWorkspace",
            R"(<block type="FromWorkspace" name="b" time="[0, 1, 2]" values="[[1, 2], [3, 4]]"/>)",
            "'values' is 2 x 2, but 'time' has 3 times"},
        BadBlock{"FromWorkspaceMissing", R"(<block type="FromWorkspace" name="b" time="[0, 1]"/>)",
                 "values"},
        BadBlock{"Assertion", R"(<block type="Assertion" name="b" enabled="maybe"/>)", "maybe"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks
