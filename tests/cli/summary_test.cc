// `twinblocks run` prints a model's <summary>s, one `summary:` line per value, also with
// --quiet and after a failed run (with a note), writes them to RESULTS_summary.csv, leaves both
// out with --no-summary, and reports a bad op or signal as bad input at the element's line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace {

namespace fs = std::filesystem;
using twinblocks::testing::CliResult;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::RunCliWithStdout;
using twinblocks::testing::WriteText;

constexpr const char* kSummaryDirPrefix = "twinblocks_cli_summary_";  // of each test's directory

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> LinesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& line : Lines(text)) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

// Ramps with exact results: clock.t = t and err.y = -3 t over [0, 2].
const char kRamps[] = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<model name="ramps" format="1">
  <simulation solver="ode4" t_end="2" step="0.25"/>
  <block type="Clock" name="clock"/>
  <block type="Gain" name="err" k="-3"/>
  <block type="Mux" name="both" inputs="2"/>
  <connect from="clock.t" to="err.u"/>
  <connect from="clock.t" to="both.u1"/>
  <connect from="err.y" to="both.u2"/>
  <log signal="clock.t" as="t"/>
  <summary signal="err.y" op="max_abs" label="max tracking error (rad)"/>
  <summary signal="both.y" op="mean"/>
  <summary signal="clock.t both.y[1]" op="rms" label="rms, both"/>
</model>
)xml";

const std::vector<std::string> kExpectedLines = {
    "summary: max_abs err.y = 6  (max tracking error (rad))",
    "summary: mean both.y[0] = 1",
    "summary: mean both.y[1] = -3",
    "summary: rms clock.t = 1.1547  (rms, both)",
    "summary: rms both.y[1] = 3.4641  (rms, both)",
};

TEST(CliSummaryTest, RunPrintsEachValueAndWritesTheCsvNextToTheResults) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "run");
  WriteText(dir / "ramps.xml", kRamps);
  const CliResult r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -o " +
                                       (dir / "out" / "ramps.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(LinesStartingWith(r.text, "summary:"), kExpectedLines) << r.text;
  const fs::path csv = dir / "out" / "ramps_summary.csv";
  EXPECT_NE(r.text.find("wrote " + csv.string()), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("note:"), std::string::npos) << r.text;

  const std::vector<std::string> rows = Lines(ReadAll(csv));
  ASSERT_EQ(rows.size(), 6u) << ReadAll(csv);
  EXPECT_EQ(rows[0], "signal,op,value,label");
  EXPECT_EQ(rows[1], "err.y,max_abs,6,max tracking error (rad)");
  EXPECT_EQ(rows[2], "both.y[0],mean,1,");
  EXPECT_EQ(rows[3], "both.y[1],mean,-3,");
  // Full precision in the file: rms of t over [0, 2] is 2 / sqrt(3).
  const std::string prefix = "clock.t,rms,";
  ASSERT_EQ(rows[4].rfind(prefix, 0), 0u) << rows[4];
  EXPECT_NEAR(std::stod(rows[4].substr(prefix.size())), 2.0 / std::sqrt(3.0), 1e-15);
  EXPECT_EQ(rows[4].substr(rows[4].find(",\"")), ",\"rms, both\"");
  EXPECT_EQ(rows[5].rfind("both.y[1],rms,3.46410161513775", 0), 0u) << rows[5];

  // The summarized signals are logged, besides the model's own log.
  EXPECT_EQ(Lines(ReadAll(dir / "out" / "ramps.csv"))[0], "time,t,err.y,both.y[0],both.y[1]");
}

TEST(CliSummaryTest, QuietKeepsTheValuesAndNoSummaryDropsThem) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "quiet");
  WriteText(dir / "ramps.xml", kRamps);
  CliResult r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -q -o " +
                                 (dir / "ramps.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(LinesStartingWith(r.text, "summary:"), kExpectedLines) << r.text;
  EXPECT_EQ(r.text.find("wrote"), std::string::npos) << r.text;
  EXPECT_TRUE(fs::exists(dir / "ramps_summary.csv"));

  fs::remove(dir / "ramps_summary.csv");
  r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " --no-summary -o " +
                       (dir / "ramps.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_TRUE(LinesStartingWith(r.text, "summary:").empty()) << r.text;
  EXPECT_FALSE(fs::exists(dir / "ramps_summary.csv"));
}

TEST(CliSummaryTest, AModelWithoutSummariesWritesNoSummaryFile) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "none");
  std::string model = kRamps;
  model.erase(model.find("  <summary"), model.find("</model>") - model.find("  <summary"));
  WriteText(dir / "ramps.xml", model);
  const CliResult r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -o " +
                                       (dir / "ramps.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_TRUE(LinesStartingWith(r.text, "summary:").empty()) << r.text;
  EXPECT_EQ(r.text.find("_summary.csv"), std::string::npos) << r.text;
  EXPECT_FALSE(fs::exists(dir / "ramps_summary.csv"));
}

TEST(CliSummaryTest, AFailedRunSummarizesItsResultsSoFarWithANote) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "failed_run");
  std::string model = ReadAll(std::string(TWINBLOCKS_TEST_DATA) + "/blowup.xml");
  model.insert(model.find("</model>"),
               "  <summary signal=\"x.y\" op=\"max\" label=\"peak\"/>\n"
               "  <summary signal=\"x.y\" op=\"min\"/>\n");
  WriteText(dir / "blowup.xml", model);
  const CliResult r = RunCliWithStdout("run " + (dir / "blowup.xml").string() + " -o " +
                                       (dir / "blowup.csv").string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_NE(r.text.find("note: the run failed; the summaries cover its results up to t = 1 s\n"),
            std::string::npos)
      << r.text;
  const std::vector<std::string> lines = LinesStartingWith(r.text, "summary:");
  ASSERT_EQ(lines.size(), 2u) << r.text;
  // x = 1 / (1 - t) grows without bound towards t = 1: the largest value so far is large.
  const std::string max_prefix = "summary: max x.y = ";
  ASSERT_EQ(lines[0].rfind(max_prefix, 0), 0u) << lines[0];
  EXPECT_GT(std::stod(lines[0].substr(max_prefix.size())), 100.0) << lines[0];
  EXPECT_NE(lines[0].find("  (peak)"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "summary: min x.y = 1");
  EXPECT_EQ(Lines(ReadAll(dir / "blowup_summary.csv")).size(), 3u);
}

TEST(CliSummaryTest, ABadOpIsBadInputAtItsLine) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "bad_op");
  std::string model = kRamps;
  model.replace(model.find("op=\"mean\""), 9, "op=\"avg\"");
  WriteText(dir / "ramps.xml", model);
  const CliResult r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -o " +
                                       (dir / "ramps.csv").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_NE(r.text.find((dir / "ramps.xml").string() +
                        ":12: op=\"avg\" on <summary>; expected one of: max, min, max_abs, final, "
                        "mean, rms"),
            std::string::npos)
      << r.text;
  EXPECT_EQ(Lines(r.text).size(), 1u) << r.text;
  EXPECT_FALSE(fs::exists(dir / "ramps.csv"));
}

TEST(CliSummaryTest, ABadSignalIsBadInputAtItsLine) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "bad_signal");
  std::string model = kRamps;
  model.replace(model.find("both.y[1]\" op=\"rms\""), 9, "both.y[2]");
  WriteText(dir / "ramps.xml", model);
  CliResult r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -o " +
                                 (dir / "ramps.csv").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_NE(r.text.find("ramps.xml:13: summary rms: cannot summarize 'both.y[2]': 'both.y' has "
                        "width 2, so its elements are [0] ... [1]"),
            std::string::npos)
      << r.text;

  model = kRamps;
  model.replace(model.find("signal=\"err.y\""), 14, "signal=\"err.q\"");
  WriteText(dir / "ramps.xml", model);
  r = RunCliWithStdout("run " + (dir / "ramps.xml").string() + " -o " +
                       (dir / "ramps.csv").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_NE(r.text.find("ramps.xml:11: summary max_abs: cannot summarize 'err.q': no such signal"),
            std::string::npos)
      << r.text;
}

TEST(CliSummaryTest, CheckListsTheSummaries) {
  const fs::path dir = FreshDirectory(kSummaryDirPrefix, "check");
  WriteText(dir / "ramps.xml", kRamps);
  const CliResult r = RunCliWithStdout("check " + (dir / "ramps.xml").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("summaries (printed by run):\n"
                        "  max_abs  err.y  (max tracking error (rad))\n"
                        "  mean     both.y\n"
                        "  rms      clock.t both.y[1]  (rms, both)\n"),
            std::string::npos)
      << r.text;
}

}  // namespace
