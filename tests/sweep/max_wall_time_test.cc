// A sweep's run that exceeds max_wall_time is a row of its own status, with its results so far.
#include <gtest/gtest.h>

#include <string>

#include "sweep/sweep_plan.h"
#include "sweep/sweep_runner.h"
#include "xml/model_reader.h"

namespace twinblocks::sweep {
namespace {

TEST(SweepMaxWallTime, ARunThatExceedsItIsATimedOutRow) {
  const graph::Model model = xml::ReadModelFile(std::string(TWINBLOCKS_TEST_DATA) + "/slow.xml");
  SweepSpec spec;
  spec.parameters.push_back(ParseSweepSetting("drive.amplitude=1,2"));
  const SweepPlan plan(spec);
  SweepOptions options;
  options.settings.Set("max_wall_time", 0.2);
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  ASSERT_EQ(rows.size(), 2u);
  for (const RunResult& r : rows) {
    EXPECT_EQ(r.status, RunStatus::kTimedOut) << r.error;
    EXPECT_EQ(RunStatusName(r.status), "timed out");
    EXPECT_GT(r.t_reached, 0.0);
    EXPECT_LT(r.t_reached, 1e4);
    EXPECT_NE(r.error.find("exceeded max_wall_time"), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace twinblocks::sweep
