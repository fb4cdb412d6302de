// `twinblocks sweep` from the command line: E3 (the G3 density sweep as one command, the same
// summary bit for bit with -j1, -j2 and mpirun -np 2), E4 (a failing run is a row, the others
// finish) and every bad command line as one line with exit status 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using twinblocks::testing::CliResult;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::RunCli;
using twinblocks::testing::RunShell;
using twinblocks::testing::SourcePath;

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Growth() { return std::string(TWINBLOCKS_TEST_DATA) + "/sweep/growth.xml"; }

// The G3 sweep at a shorter horizon than the paper's 0.5 s (0.1 s: the sphere is pushed down
// in every run by then) to keep CI time low: about 0.2 s of CPU per run.
const std::string kG3Args = SourcePath("models/gripper4/g2_power.xml") +
                            " --set object.density=160,700,2300,7860,19250 --t-end 0.1"
                            " --plot object.position[2] --final object.position[2] -q";

#ifdef TWINBLOCKS_MPIEXEC
// mpirun as root (CI containers) needs these two, and --oversubscribe on a 2-core machine.
CliResult RunMpi(int ranks, const std::string& args) {
  return RunShell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                  std::string(TWINBLOCKS_MPIEXEC) + " --oversubscribe -np " +
                  std::to_string(ranks) + " " + TWINBLOCKS_CLI + " sweep " + args + " 2>&1");
}
#endif

TEST(SweepCommandTest, E3DensitySweepIsTheSameWithOneAndTwoThreads) {
  const std::filesystem::path j1 = FreshDirectory("sweep_e3_", "j1");
  const std::filesystem::path j2 = FreshDirectory("sweep_e3_", "j2");
  CliResult r = RunCli("sweep " + kG3Args + " -j1 -o " + j1.string(), true);
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_THAT(r.text, HasSubstr("5 runs: 5 ok, 0 failed, 0 invalid"));
  r = RunCli("sweep " + kG3Args + " -j2 -o " + j2.string(), true);
  ASSERT_EQ(r.status, 0) << r.text;

  const std::string summary = ReadText(j1 / "summary.csv");
  const std::vector<std::string> lines = Lines(summary);
  ASSERT_EQ(lines.size(), 6u) << summary;
  EXPECT_THAT(lines[0], StartsWith("index,object.density,status,t_reached,error,"));
  EXPECT_THAT(lines[0], HasSubstr(",final(object.position[2])"));
  const char* densities[] = {"160", "700", "2300", "7860", "19250"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_THAT(lines[i + 1], StartsWith(std::to_string(i) + "," + densities[i] + ",ok,0.1,,"));
  }
  EXPECT_EQ(ReadText(j2 / "summary.csv"), summary) << "-j2 differs from -j1";
  for (int i = 0; i < 5; ++i) {
    const std::string file = "run_000" + std::to_string(i) + ".csv";
    EXPECT_EQ(ReadText(j2 / file), ReadText(j1 / file)) << file;
  }
  // The plot: one line per density, labelled with it (paper Fig. 12A).
  const std::string svg = ReadText(j1 / "plot_object.position_2.svg");
  for (const char* d : densities) {
    EXPECT_THAT(svg, HasSubstr(std::string("object.density=") + d));
  }
  size_t series = 0;
  for (size_t at = svg.find("class=\"series\""); at != std::string::npos;
       at = svg.find("class=\"series\"", at + 1)) {
    ++series;
  }
  EXPECT_EQ(series, 5u);
  EXPECT_THAT(ReadText(j1 / "timings.csv"), StartsWith("index,status,wall_seconds\n0,ok,"));
}

// E3 under MPI: two ranks (each running every other density) write the summary, run files
// and plot of one rank with one thread, byte for byte.
TEST(SweepCommandTest, E3DensitySweepIsTheSameUnderMpirunWithTwoRanks) {
#ifdef TWINBLOCKS_MPIEXEC
  const std::filesystem::path j1 = FreshDirectory("sweep_e3mpi_", "j1");
  const std::filesystem::path mpi = FreshDirectory("sweep_e3mpi_", "mpi");
  CliResult r = RunCli("sweep " + kG3Args + " -j1 -o " + j1.string());
  ASSERT_EQ(r.status, 0) << r.text;
  r = RunMpi(2, kG3Args + " -j1 -o " + mpi.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_THAT(r.text, HasSubstr("5 runs: 5 ok"));
  EXPECT_EQ(ReadText(mpi / "summary.csv"), ReadText(j1 / "summary.csv"))
      << "mpirun -np 2 differs from -j1";
  for (int i = 0; i < 5; ++i) {
    const std::string file = "run_000" + std::to_string(i) + ".csv";
    EXPECT_EQ(ReadText(mpi / file), ReadText(j1 / file)) << file;
  }
  EXPECT_EQ(ReadText(mpi / "plot_object.position_2.svg"),
            ReadText(j1 / "plot_object.position_2.svg"));
#else
  GTEST_SKIP() << "MPI is not built (TWINBLOCKS_MPI off): mpirun -np 2 is not tested";
#endif
}

// Under mpirun each rank opens MPI (its plugin) and runs its share: both ranks report runs. A
// rank that failed to join would be rank 0 of 1 and run every value itself.
TEST(SweepCommandTest, MpirunSpreadsTheRunsOverTheRanks) {
#ifdef TWINBLOCKS_MPIEXEC
  const std::filesystem::path dir = FreshDirectory("sweep_ranks_", "mpi");
  const CliResult r = RunMpi(2, Growth() + " --set k=0.5,0.25 -j1 -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_THAT(r.text, HasSubstr("run 1/2 [rank 0]: k=0.5: ok"));
  EXPECT_THAT(r.text, HasSubstr("run 2/2 [rank 1]: k=0.25: ok"));
#else
  GTEST_SKIP() << "MPI is not built (TWINBLOCKS_MPI off): mpirun -np 2 is not tested";
#endif
}

TEST(SweepCommandTest, MonteCarloIsTheSameWithThreadsAndRanks) {
  const std::string args = Growth() +
                           " --set 'k=uniform(0.2,1.6)' --set out.k=1,2 --samples 5 --seed 11 -q "
                           "--no-run-files --max out.y";
  const std::filesystem::path j1 = FreshDirectory("sweep_mc_", "j1");
  const std::filesystem::path j2 = FreshDirectory("sweep_mc_", "j2");
  CliResult r = RunCli("sweep " + args + " -j1 -o " + j1.string());
  EXPECT_EQ(r.status, 3) << "some draws make x blow up: " << r.text;
  r = RunCli("sweep " + args + " -j2 -o " + j2.string());
  EXPECT_EQ(r.status, 3) << r.text;
  const std::string summary = ReadText(j1 / "summary.csv");
  EXPECT_EQ(Lines(summary).size(), 11u) << summary;
  EXPECT_EQ(ReadText(j2 / "summary.csv"), summary);
  EXPECT_FALSE(std::filesystem::exists(j1 / "run_0000.csv"));
#ifdef TWINBLOCKS_MPIEXEC
  // Two ranks of two threads each.
  const std::filesystem::path mpi = FreshDirectory("sweep_mc_", "mpi");
  r = RunMpi(2, args + " -j2 -o " + mpi.string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_EQ(ReadText(mpi / "summary.csv"), summary);
#endif
}

// L5: the noise sources give the same numbers, bit for bit, for a seed whichever thread or MPI
// rank runs it. Four runs zip the model variable `seed` (RandomNumber and UniformRandomNumber)
// with the BandLimitedWhiteNoise's own `noise.seed` vector; run 3 repeats run 0's seeds. The
// run files (every logged noise element and the spring it drives, as the shortest text that
// reads back to the same double) and the summary are compared byte for byte across -j1, -j2
// and mpirun -np 2; run 3's file equals run 0's, and run 1's noise differs from run 0's.
std::string NoiseSweepArgs() {
  return std::string(TWINBLOCKS_TEST_DATA) +
         "/sweep/noise.xml --zip --set seed=1,2,3,1 --set 'noise.seed=[1, 2],[5, 6],[7, 8],[1, 2]'"
         " --max mass.y -q";
}

std::vector<std::string> NoiseColumn(const std::string& csv, size_t column) {
  std::vector<std::string> values;
  for (const std::string& line : Lines(csv)) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    values.push_back(column < cells.size() ? cells[column] : "");
  }
  return values;
}

TEST(SweepCommandTest, L5NoiseIsBitwiseTheSameForASeedWithThreadsAndRanks) {
  const std::filesystem::path j1 = FreshDirectory("sweep_l5_", "j1");
  const std::filesystem::path j2 = FreshDirectory("sweep_l5_", "j2");
  CliResult r = RunCli("sweep " + NoiseSweepArgs() + " -j1 -o " + j1.string(), true);
  ASSERT_EQ(r.status, 0) << r.text;
  r = RunCli("sweep " + NoiseSweepArgs() + " -j2 -o " + j2.string(), true);
  ASSERT_EQ(r.status, 0) << r.text;
  const std::string run0 = ReadText(j1 / "run_0000.csv");
  ASSERT_THAT(run0, StartsWith("time,w[0],w[1],g,v,x\n"));
  EXPECT_EQ(Lines(run0).size(), 202u);  // header + t = 0, 0.01, ..., 2
  for (int i = 0; i < 4; ++i) {
    const std::string file = "run_000" + std::to_string(i) + ".csv";
    EXPECT_EQ(ReadText(j2 / file), ReadText(j1 / file)) << file << ": -j2 differs from -j1";
  }
  EXPECT_EQ(ReadText(j2 / "summary.csv"), ReadText(j1 / "summary.csv"));
  // The same seeds, the same numbers; other seeds, other numbers (every noise column).
  EXPECT_EQ(ReadText(j1 / "run_0003.csv"), run0);
  const std::string run1 = ReadText(j1 / "run_0001.csv");
  for (size_t column = 1; column <= 4; ++column) {
    EXPECT_NE(NoiseColumn(run1, column), NoiseColumn(run0, column)) << "column " << column;
  }
#ifdef TWINBLOCKS_MPIEXEC
  const std::filesystem::path mpi = FreshDirectory("sweep_l5_", "mpi");
  r = RunMpi(2, NoiseSweepArgs() + " -j1 -o " + mpi.string());
  ASSERT_EQ(r.status, 0) << r.text;
  for (int i = 0; i < 4; ++i) {
    const std::string file = "run_000" + std::to_string(i) + ".csv";
    EXPECT_EQ(ReadText(mpi / file), ReadText(j1 / file)) << file << ": mpirun -np 2 differs";
  }
  EXPECT_EQ(ReadText(mpi / "summary.csv"), ReadText(j1 / "summary.csv"));
#endif
}

TEST(SweepCommandTest, E4FailingRunIsReportedWithItsTimeAndCauseAndTheOthersFinish) {
  const std::filesystem::path dir = FreshDirectory("sweep_", "e4");
  const CliResult r = RunCli("sweep " + Growth() + " --set k=0.5,4,0.25 -j2 -o " + dir.string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_THAT(r.text, HasSubstr("run 1 (k=4) failed: simulation failed at t = 0.25"));
  EXPECT_THAT(r.text, HasSubstr("x (Integrator)"));
  const std::vector<std::string> lines = Lines(ReadText(dir / "summary.csv"));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[1], StartsWith("0,0.5,ok,1,,"));
  EXPECT_THAT(lines[2], StartsWith("1,4,failed,0.25"));
  EXPECT_THAT(lines[2], HasSubstr("derivative of x (Integrator)"));
  EXPECT_THAT(lines[3], StartsWith("2,0.25,ok,1,,"));
  // The failed run's results up to the failure are in its file.
  EXPECT_GT(Lines(ReadText(dir / "run_0001.csv")).size(), 20u);
}

// Simulink's `auto` absolute tolerance for every run.
TEST(SweepCommandTest, AtolAutoAppliesToEveryRun) {
  const std::filesystem::path dir = FreshDirectory("sweep_", "atol_auto");
  const CliResult r = RunCli("sweep " + Growth() +
                             " --set k=0.25,0.5 --atol auto --no-run-files -o " + dir.string());
  EXPECT_EQ(r.status, 0) << r.text;
  EXPECT_THAT(ReadText(dir / "summary.csv"), HasSubstr("\n1,0.5,ok,"));
}

TEST(SweepCommandTest, InvalidRunsAreRowsToo) {
  const std::filesystem::path dir = FreshDirectory("sweep_", "invalid");
  const CliResult r = RunCli("sweep " + Growth() + " --set k=0.5,bogus -o " + dir.string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_THAT(r.text, HasSubstr("run 1 (k=bogus) invalid:"));
  EXPECT_THAT(ReadText(dir / "summary.csv"), HasSubstr("\n1,bogus,invalid,,"));
}

struct BadCommand {
  const char* name;
  std::string args;
  const char* says;
};

void PrintTo(const BadCommand& c, std::ostream* os) { *os << c.name; }

class SweepBadCommandTest : public ::testing::TestWithParam<BadCommand> {};

TEST_P(SweepBadCommandTest, OneLineAndStatus2) {
  const BadCommand& c = GetParam();
  const std::filesystem::path dir = FreshDirectory("sweep_bad_", c.name);
  const CliResult r = RunCli("sweep " + c.args + " -o " + dir.string());
  EXPECT_EQ(r.status, 2) << r.text;
  ASSERT_FALSE(r.text.empty());
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << "more than one line: " << r.text;
  EXPECT_THAT(r.text, HasSubstr(c.says));
  EXPECT_FALSE(std::filesystem::exists(dir / "summary.csv")) << "nothing ran";
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, SweepBadCommandTest,
    ::testing::Values(
        BadCommand{"unparsable_list", Growth() + " --set k=1,,2", "an empty value"},
        BadCommand{"unbalanced", Growth() + " --set 'k=[1,2'", "never closed"},
        BadCommand{"no_equals", Growth() + " --set k", "expected NAME=v1,v2"},
        BadCommand{"zip_lengths", Growth() + " --zip --set k=1,2 --set out.k=1,2,3",
                   "'k' has 2 values but 'out.k' has 3"},
        BadCommand{"grid_and_zip", Growth() + " --grid --zip --set k=1,2", "--zip"},
        BadCommand{"unknown_distribution", Growth() + " --set 'k=gamma(1,2)' --samples 3",
                   "unknown distribution 'gamma'"},
        BadCommand{"samples_without_distribution", Growth() + " --set k=1,2 --samples 3",
                   "--samples needs a parameter with a distribution"},
        BadCommand{"distribution_without_samples", Growth() + " --set 'k=normal(1,0.1)'",
                   "needs --samples N"},
        BadCommand{"unknown_variable", Growth() + " --set kk=1,2", "no variable 'kk'"},
        BadCommand{"unknown_block", Growth() + " --set nothing.k=1,2", "nothing"},
        BadCommand{"unknown_parameter", Growth() + " --set rate.gain=1,2",
                   "unknown parameter 'gain'"},
        BadCommand{"unknown_plot_signal", Growth() + " --set k=1 --plot x.nope", "x.nope"},
        BadCommand{"unknown_output_signal", Growth() + " --set k=1 --final nope.y", "--final"},
        BadCommand{"unknown_solver", Growth() + " --set k=1 --solver ode99", "ode99"},
        BadCommand{"zero_threads", Growth() + " --set k=1 -j0", "-j"},
        BadCommand{"atol_auto_not_scaled",
                   Growth() + " --set k=1 --atol auto --auto-scale-atol off",
                   "--auto-scale-atol off cannot go with --atol auto"},
        BadCommand{"atol_word", Growth() + " --set k=1 --atol often", "often"},
        BadCommand{"no_set", Growth(), "--set"},
        BadCommand{"missing_model", "no_such_model.xml --set k=1", "no_such_model.xml"},
        BadCommand{"bad_model",
                   std::string(TWINBLOCKS_TEST_DATA) +
                       "/bad_input/unknown_block_type.xml --set c.value=1,2",
                   "unknown_block_type.xml:4:"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SweepCommandTest, AnUnwritableOutputDirectoryIsBadInput) {
  const CliResult r = RunCli("sweep " + Growth() + " --set k=1 -o /proc/no_such_dir");
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_THAT(r.text, HasSubstr("/proc/no_such_dir"));
}

TEST(SweepCommandTest, AnUnwritableSummaryIsBadInput) {
  const std::filesystem::path dir = FreshDirectory("sweep_", "unwritable_summary");
  std::filesystem::create_directories(dir / "summary.csv");
  const CliResult r = RunCli("sweep " + Growth() + " --set k=1 --no-run-files -o " + dir.string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_THAT(r.text, HasSubstr("cannot write the summary"));
}

}  // namespace
