// max_wall_time: a run that exceeds it stops as a failed run does (exit status 3, its results
// so far written, one line saying when), and invalid values are refused before it starts.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

using twinblocks::testing::CountLines;
using twinblocks::testing::RunCli;

const std::string kSlow = std::string(TWINBLOCKS_TEST_DATA) + "/slow.xml";

TEST(CliMaxWallTime, ALongRunStopsWithStatus3AndItsResultsSoFar) {
  const std::string csv = ::testing::TempDir() + "slow.csv";
  const auto start = std::chrono::steady_clock::now();
  const twinblocks::testing::CliResult r =
      RunCli("run " + kSlow + " --quiet --max-wall-time 0.2 -o " + csv);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_LT(seconds, 2.0) << "the run stopped late";
  EXPECT_EQ(CountLines(r.text), 1) << r.text;
  EXPECT_NE(r.text.find("the run exceeded max_wall_time (0.2 s of wall-clock time) at t = "),
            std::string::npos)
      << r.text;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time,x");
  int rows = 0;
  double t_last = -1.0;
  while (std::getline(in, line)) {
    t_last = std::stod(line.substr(0, line.find(',')));
    ++rows;
  }
  EXPECT_GT(rows, 1) << "the results so far are written";
  EXPECT_LT(t_last, 1e4);
}

TEST(CliMaxWallTime, ALimitTheRunKeepsWithinChangesNothing) {
  const std::string a = ::testing::TempDir() + "limited.csv";
  const std::string b = ::testing::TempDir() + "unlimited.csv";
  const std::string run = "run " + kSlow + " --quiet --t-end 0.01 ";
  ASSERT_EQ(RunCli(run + "--max-wall-time 1000 -o " + a).status, 0);
  ASSERT_EQ(RunCli(run + "-o " + b).status, 0);
  EXPECT_EQ(twinblocks::testing::ReadBytes(a), twinblocks::testing::ReadBytes(b));
}

TEST(CliMaxWallTime, InvalidValuesAreRefusedInOneLine) {
  for (const char* bad : {"0", "-1", "soon"}) {
    const twinblocks::testing::CliResult r =
        RunCli("run " + kSlow + " --quiet -o /dev/null --max-wall-time=" + std::string(bad));
    EXPECT_EQ(r.status, 2) << bad << ": " << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << r.text;
    EXPECT_NE(r.text.find("--max-wall-time"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("expected a positive number, got '" + std::string(bad) + "'"),
              std::string::npos)
        << r.text;
  }
}

TEST(CliMaxWallTime, InvalidValuesInTheModelAreRefusedInOneLine) {
  for (const char* bad : {"0", "-1", "soon"}) {
    const std::string model = ::testing::TempDir() + "bad_wall_time.xml";
    std::ofstream(model) << "<model name=\"m\" format=\"1\">\n"
                         << "  <simulation t_end=\"1\" max_wall_time=\"" << bad << "\"/>\n"
                         << "  <block type=\"Constant\" name=\"c\" value=\"1\"/>\n"
                         << "</model>\n";
    const twinblocks::testing::CliResult r = RunCli("run " + model + " --quiet -o /dev/null");
    EXPECT_EQ(r.status, 2) << bad << ": " << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << r.text;
    EXPECT_NE(r.text.find("simulation attribute 'max_wall_time'"), std::string::npos) << r.text;
  }
}

}  // namespace
