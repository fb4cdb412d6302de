// Running a sweep through the library: rows that do not depend on threads, ranks or the order
// runs execute in; failing and invalid runs as rows; bad names and outputs found up front.
#include "sweep/sweep_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/model_error.h"
#include "sweep/sweep_table.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::sweep {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

graph::Model Growth() {
  return xml::ReadModelFile(std::string(TWINBLOCKS_TEST_DATA) + "/sweep/growth.xml");
}

SweepPlan RunnerPlan(const std::vector<std::string>& sets, int samples = 0,
                     std::uint64_t seed = 0) {
  SweepSpec spec;
  for (const std::string& s : sets) spec.parameters.push_back(ParseSweepSetting(s));
  spec.samples = samples;
  spec.seed = seed;
  return SweepPlan(spec);
}

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The bits of a double, so that "equal" means bit for bit, NaN included.
std::uint64_t Bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

void ExpectSameRows(const std::vector<RunResult>& a, const std::vector<RunResult>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].values, b[i].values);
    EXPECT_EQ(a[i].status, b[i].status);
    EXPECT_EQ(Bits(a[i].t_reached), Bits(b[i].t_reached));
    EXPECT_EQ(a[i].error, b[i].error);
    ASSERT_EQ(a[i].summaries.size(), b[i].summaries.size());
    for (size_t k = 0; k < a[i].summaries.size(); ++k) {
      EXPECT_EQ(a[i].summaries[k].signal, b[i].summaries[k].signal);
      EXPECT_EQ(Bits(a[i].summaries[k].value), Bits(b[i].summaries[k].value));
    }
    ASSERT_EQ(a[i].series.size(), b[i].series.size());
    for (size_t p = 0; p < a[i].series.size(); ++p) {
      ASSERT_EQ(a[i].series[p].size(), b[i].series[p].size());
      for (size_t s = 0; s < a[i].series[p].size(); ++s) {
        EXPECT_EQ(a[i].series[p][s].t, b[i].series[p][s].t);
        EXPECT_EQ(a[i].series[p][s].y, b[i].series[p][s].y);
      }
    }
  }
}

// E4: k > 1 makes x blow up at t = 1 / k; the run fails there, says when and where, and keeps
// its results so far; the other runs finish with x(1) = 1 / (1 - k).
TEST(SweepRunnerTest, AFailingRunIsARowAndTheOthersFinish) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5,4,0.25"});
  SweepOptions options;
  options.plot_signals = {"x.y"};
  const std::filesystem::path dir = testing::FreshDirectory("sweep_", "e4");
  options.run_dir = dir.string();
  CheckSweep(model, plan, options);
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  ASSERT_EQ(rows.size(), 3u);

  EXPECT_EQ(rows[0].status, RunStatus::kOk);
  EXPECT_EQ(rows[0].t_reached, 1.0);
  EXPECT_EQ(rows[0].error, "");
  ASSERT_EQ(rows[0].summaries.size(), 1u);
  EXPECT_EQ(rows[0].summaries[0].signal, "x.y");
  EXPECT_NEAR(rows[0].summaries[0].value, 2.0, 1e-6);
  EXPECT_NEAR(rows[2].summaries[0].value, 4.0 / 3.0, 1e-6);

  const RunResult& failed = rows[1];
  EXPECT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_NEAR(failed.t_reached, 0.25, 1e-6);
  EXPECT_THAT(failed.error, StartsWith("simulation failed at t = 0.25"));
  EXPECT_THAT(failed.error, HasSubstr("x (Integrator)"));
  // The results so far: the plot series runs up to the failure, and the run file holds it.
  ASSERT_EQ(failed.series.size(), 1u);
  ASSERT_EQ(failed.series[0].size(), 1u);
  EXPECT_GT(failed.series[0][0].t.size(), 20u);
  EXPECT_LT(failed.series[0][0].t.back(), 0.2500001);
  EXPECT_GT(failed.series[0][0].y.back(), 1e3);
  EXPECT_THAT(ReadText(dir / "run_0001.csv"), StartsWith("time,y"));

  const std::string table = SummaryTableCsv(plan, rows);
  std::istringstream lines(table);
  std::string header, row0, row1, row2;
  std::getline(lines, header);
  std::getline(lines, row0);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_EQ(header, "index,k,status,t_reached,error,final(x.y)");
  EXPECT_THAT(row0, StartsWith("0,0.5,ok,1,,2.0000"));
  EXPECT_THAT(row1, StartsWith("1,4,failed,0.25"));
  EXPECT_THAT(row1, HasSubstr("x (Integrator)"));
  EXPECT_THAT(row2, StartsWith("2,0.25,ok,1,,1.3333"));
}

// A stop request (the command line's Ctrl-C) set once the first run has finished: the runs
// not started are rows of status "not run", and the table, the plots and the encoding for
// the ranks carry them like any other.
TEST(SweepRunnerTest, AfterAStopTheRunsNotStartedAreNotRunRows) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5,0.25,0.125"});
  std::atomic<bool> stop{false};
  SweepOptions options;
  options.plot_signals = {"x.y"};
  options.stop = &stop;
  const std::vector<RunResult> rows =
      RunSweep(model, plan, options, [&stop](const RunResult&) { stop.store(true); });
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].status, RunStatus::kOk);
  for (int i : {1, 2}) {
    EXPECT_EQ(rows[i].index, i);
    EXPECT_EQ(rows[i].status, RunStatus::kNotRun);
    EXPECT_EQ(rows[i].values, plan.Run(i).values);
    EXPECT_TRUE(rows[i].summaries.empty());
  }
  const std::string table = SummaryTableCsv(plan, rows);
  EXPECT_THAT(table, HasSubstr("\n1,0.25,not run,,the sweep was interrupted before this run "
                               "started,\n"));
  ExpectSameRows(DecodeRunResults(EncodeRunResults(rows)), rows);
  const std::filesystem::path dir = testing::FreshDirectory("sweep_", "stop");
  WriteSweepPlot(plan, rows, 0, "x.y", "growth", (dir / "x.svg").string());
  EXPECT_THAT(ReadText(dir / "x.svg"), HasSubstr("k=0.5"));
  EXPECT_THAT(ReadText(dir / "x.svg"), Not(HasSubstr("k=0.25")));
}

// A run in progress when the stop comes ends there, failed, with its results so far.
TEST(SweepRunnerTest, ARunInProgressStopsWithItsResultsSoFar) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5"});
  std::atomic<bool> stop{true};
  SweepOptions options;
  options.stop = &stop;
  // Set before the sweep: the check is made before each run is taken, so the lone run is
  // not run at all.
  EXPECT_EQ(RunSweep(model, plan, options)[0].status, RunStatus::kNotRun);
  // Set once the run has started: RunOne alone (what a worker calls) stops at the start.
  const RunResult one = RunOne(model, plan, 0, options);
  EXPECT_EQ(one.status, RunStatus::kFailed);
  EXPECT_EQ(one.t_reached, 0.0);
  EXPECT_THAT(one.error, StartsWith("interrupted at t = 0 s"));
}

TEST(SweepRunnerTest, AValueThatDoesNotCompileIsAnInvalidRow) {
  const graph::Model model = Growth();
  // The second value names nothing; the third makes the gain a vector, which the model's
  // scalar integrator cannot take.
  const SweepPlan plan = RunnerPlan({"k=0.5,no_such_name,[1, 2]"});
  SweepOptions options;
  options.outputs.push_back(graph::SummarySpec{{"out.y"}, graph::SummaryOp::kMax, "", {}});
  CheckSweep(model, plan, options);
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  EXPECT_EQ(rows[0].status, RunStatus::kOk);
  EXPECT_EQ(rows[1].status, RunStatus::kInvalid);
  EXPECT_THAT(rows[1].error, HasSubstr("growth.xml"));
  EXPECT_THAT(rows[1].error, HasSubstr("no_such_name"));
  EXPECT_TRUE(std::isnan(rows[1].t_reached));
  EXPECT_TRUE(rows[1].summaries.empty());
  EXPECT_EQ(rows[2].status, RunStatus::kInvalid);
  EXPECT_THAT(rows[2].error, HasSubstr("width"));

  const std::string table = SummaryTableCsv(plan, rows);
  EXPECT_THAT(table, HasSubstr("\n1,no_such_name,invalid,,"));
  EXPECT_THAT(table, HasSubstr("final(x.y),max(out.y)\n"));
  // A vector value is quoted: it holds commas.
  EXPECT_THAT(table, HasSubstr("\n2,\"[1, 2]\",invalid,,"));
  // An invalid row has empty summary fields.
  const size_t row1 = table.find("\n1,");
  const std::string line = table.substr(row1 + 1, table.find('\n', row1 + 1) - row1 - 1);
  EXPECT_EQ(line.substr(line.size() - 2), ",,") << line;
}

TEST(SweepRunnerTest, RowsDoNotDependOnThreadsRanksOrOrder) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=uniform(0.2,1.5)", "out.k=1,-2"}, 4, 77);
  SweepOptions options;
  options.plot_signals = {"out.y"};
  options.outputs.push_back(graph::SummarySpec{{"out.y"}, graph::SummaryOp::kRms, "", {}});
  CheckSweep(model, plan, options);
  const std::vector<RunResult> one = RunSweep(model, plan, options);
  ASSERT_EQ(one.size(), 8u);
  int failed = 0;
  for (const RunResult& r : one) failed += r.status == RunStatus::kFailed ? 1 : 0;
  EXPECT_GT(failed, 0) << "some draws of k exceed 1";
  EXPECT_LT(failed, 8);

  options.threads = 3;
  const std::vector<RunResult> three = RunSweep(model, plan, options);
  ExpectSameRows(one, three);

  // Two ranks, each with two threads, gathered through the byte form.
  std::vector<RunResult> gathered;
  for (int rank : {1, 0}) {
    options.rank = rank;
    options.num_ranks = 2;
    options.threads = 2;
    const std::vector<RunResult> part = RunSweep(model, plan, options);
    for (const RunResult& r : part) EXPECT_EQ(r.index % 2, rank);
    for (RunResult& r : DecodeRunResults(EncodeRunResults(part))) gathered.push_back(std::move(r));
  }
  EXPECT_EQ(SummaryTableCsv(plan, gathered), SummaryTableCsv(plan, one));

  // Runs one at a time, last first.
  std::vector<RunResult> reversed;
  SweepOptions single;
  single.plot_signals = options.plot_signals;
  single.outputs = options.outputs;
  for (int i = plan.num_runs() - 1; i >= 0; --i) reversed.push_back(RunOne(model, plan, i, single));
  std::reverse(reversed.begin(), reversed.end());
  ExpectSameRows(one, reversed);
}

TEST(SweepRunnerTest, EncodingRoundTripsBitForBitAndRejectsCutBytes) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5,4,zzz"});
  SweepOptions options;
  options.plot_signals = {"x.y"};
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  const std::string bytes = EncodeRunResults(rows);
  ExpectSameRows(DecodeRunResults(bytes), rows);
  EXPECT_TRUE(DecodeRunResults(EncodeRunResults({})).empty());
  EXPECT_THROW(DecodeRunResults(std::string_view(bytes).substr(0, bytes.size() - 3)),
               std::runtime_error);
  EXPECT_THROW(DecodeRunResults(bytes + "x"), std::runtime_error);
  std::string huge = bytes;
  huge[0] = '\x7f';  // a row count far beyond the bytes
  EXPECT_THROW(DecodeRunResults(huge), std::runtime_error);
}

TEST(SweepRunnerTest, ARunFileThatCannotBeWrittenFailsItsRowOnly) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5,0.25"});
  SweepOptions options;
  const std::filesystem::path dir = testing::FreshDirectory("sweep_", "unwritable_run");
  options.run_dir = dir.string();
  CheckSweep(model, plan, options);
  // A directory where run 1's file should go: the run simulates, then cannot save.
  std::filesystem::create_directories(dir / "run_0001.csv");
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  EXPECT_EQ(rows[0].status, RunStatus::kOk);
  EXPECT_EQ(rows[1].status, RunStatus::kFailed);
  EXPECT_EQ(rows[1].t_reached, 1.0);
  EXPECT_THAT(rows[1].error, HasSubstr("run_0001.csv"));
}

TEST(SweepRunnerTest, PlotsDrawEveryRunThatRecordedRows) {
  const graph::Model model = Growth();
  const SweepPlan plan = RunnerPlan({"k=0.5,4,nope"});
  SweepOptions options;
  options.plot_signals = {"x.y"};
  const std::vector<RunResult> rows = RunSweep(model, plan, options);
  const std::filesystem::path dir = testing::FreshDirectory("sweep_", "plot");
  const std::string path = (dir / "x.svg").string();
  WriteSweepPlot(plan, rows, 0, "x.y", "growth", path);
  const std::string svg = ReadText(path);
  EXPECT_THAT(svg, HasSubstr("k=0.5"));
  EXPECT_THAT(svg, HasSubstr("k=4 (failed at t = 0.25"));
  EXPECT_THAT(svg, ::testing::Not(HasSubstr("k=nope"))) << "an invalid run has no line";
  EXPECT_THROW(WriteSweepPlot(plan, rows, 1, "x.y", "growth", path), std::logic_error);
  EXPECT_THROW(WriteSweepPlot(plan, rows, 0, "x.y", "growth", "/proc/no/x.svg"),
               std::runtime_error);
}

TEST(SweepRunnerTest, TheTableNeedsEveryRunOnce) {
  const SweepPlan plan = RunnerPlan({"k=1,2"});
  RunResult a;
  a.index = 0;
  a.values = {"1"};
  EXPECT_THROW(SummaryTableCsv(plan, {a}), std::logic_error);
  EXPECT_THROW(SummaryTableCsv(plan, {a, a}), std::logic_error);
  RunResult b = a;
  b.index = 1;
  b.values = {"2"};
  EXPECT_NO_THROW(SummaryTableCsv(plan, {b, a}));
}

TEST(SweepRunnerTest, CheckSweepFindsBadNamesOutputsAndSettingsUpFront) {
  const graph::Model model = Growth();
  auto error_of = [&](const std::vector<std::string>& sets, const SweepOptions& options) {
    try {
      CheckSweep(model, RunnerPlan(sets), options);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const SweepOptions plain;
  EXPECT_THAT(error_of({"kk=1,2"}, plain), HasSubstr("no variable 'kk'"));
  EXPECT_THAT(error_of({"kk=1,2"}, plain), HasSubstr("'k'"));  // the suggestion
  EXPECT_THAT(error_of({"nothing.k=1,2"}, plain), HasSubstr("nothing"));
  EXPECT_THAT(error_of({"rate.gain=1,2"}, plain), HasSubstr("unknown parameter 'gain'"));
  EXPECT_THAT(error_of({"rate.gain=1,2"}, plain), HasSubstr("growth.xml:"));
  EXPECT_EQ(error_of({"k=0.1,0.2"}, plain), "(no error)");

  SweepOptions bad_output;
  bad_output.outputs.push_back(
      graph::SummarySpec{{"x.nope"}, graph::SummaryOp::kFinal, "", {"--final", 0}});
  EXPECT_THAT(error_of({"k=1"}, bad_output), HasSubstr("--final"));
  EXPECT_THAT(error_of({"k=1"}, bad_output), HasSubstr("x.nope"));

  SweepOptions bad_plot;
  bad_plot.plot_signals = {"rate.y[3]"};
  EXPECT_THAT(error_of({"k=1"}, bad_plot), HasSubstr("--plot"));
  EXPECT_THAT(error_of({"k=1"}, bad_plot), HasSubstr("rate.y[3]"));

  SweepOptions bad_solver;
  bad_solver.settings.Set("solver", std::string("ode99"));
  EXPECT_THAT(error_of({"k=1"}, bad_solver), HasSubstr("ode99"));

  SweepOptions no_threads;
  no_threads.threads = 0;
  EXPECT_THAT(error_of({"k=1"}, no_threads), HasSubstr("1 or more threads"));

  SweepOptions bad_dir;
  bad_dir.run_dir = "/proc/no_such_dir";
  EXPECT_THAT(error_of({"k=1"}, bad_dir), HasSubstr("cannot write run files"));
}

TEST(SweepRunnerTest, RunFileNamesSortInRunOrder) {
  EXPECT_EQ(RunFileName(3, 5), "run_0003.csv");
  EXPECT_EQ(RunFileName(42, 100000), "run_00042.csv");
  EXPECT_EQ(RankIndices(7, 1, 3), (std::vector<int>{1, 4}));
  EXPECT_EQ(RankIndices(2, 2, 3), (std::vector<int>{}));
  EXPECT_EQ(PlotFileName("hand/finger1/phalanx1.q[2]"), "plot_hand_finger1_phalanx1.q_2.svg");
}

}  // namespace
}  // namespace twinblocks::sweep
