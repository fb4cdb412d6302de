// A simulation that fails numerically says when and where, exits with status 3, and keeps the
// results computed before the failure.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

TEST(CliRunFailure, BlowupExitsWithStatus3AndKeepsResults) {
  const std::string model = std::string(TWINBLOCKS_TEST_DATA) + "/blowup.xml";
  const std::string csv = ::testing::TempDir() + "blowup.csv";
  const twinblocks::testing::CliResult r =
      twinblocks::testing::RunCli("run " + model + " --quiet -o " + csv);
  EXPECT_EQ(r.status, 3) << r.text;
  const std::string& err = r.text;
  // When: the message gives the time, at the singularity t = 1. Where: the state's block.
  const std::string when = "simulation failed at t = ";
  const size_t at = err.find(when);
  ASSERT_NE(at, std::string::npos) << err;
  EXPECT_NEAR(std::stod(err.substr(at + when.size())), 1.0, 1e-3) << err;
  EXPECT_NE(err.find("x (Integrator)"), std::string::npos) << err;

  // The rows before the failure are written, and exact where the solution is well behaved.
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time,x");
  int rows = 0, checked = 0;
  double t_last = 0.0;
  while (std::getline(in, line)) {
    const double t = std::stod(line.substr(0, line.find(',')));
    const double x = std::stod(line.substr(line.find(',') + 1));
    if (t < 0.99) {
      EXPECT_NEAR(x, 1.0 / (1.0 - t), 1e-6 * x) << "t = " << t;
      ++checked;
    }
    t_last = t;
    ++rows;
  }
  EXPECT_GT(checked, 10);
  EXPECT_GT(t_last, 0.999) << "results up to the failure are kept";
}

}  // namespace
