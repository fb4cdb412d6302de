// Ctrl-C during `twinblocks run` or `sweep`: the work in progress stops after the step in
// progress, the results so far are written, and the status is 130 (128 + SIGINT, what a
// shell reports for Ctrl-C).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Interrupted {
  bool signalled = false;  ///< the trigger text appeared and SIGINT was sent
  int raw_status = 0;      ///< as waitpid gives it
  std::string output;      ///< stdout and stderr together
};

// Runs the command line with `args`, and sends it SIGINT once its output shows `trigger`.
Interrupted RunAndInterrupt(const std::vector<std::string>& args, const std::string& trigger) {
  Interrupted r;
  int out_pipe[2];
  if (pipe(out_pipe) != 0) return r;
  const pid_t pid = fork();
  if (pid < 0) return r;
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(out_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(out_pipe[1]);
    std::vector<char*> argv{const_cast<char*>(TWINBLOCKS_CLI)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(TWINBLOCKS_CLI, argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  FILE* out = fdopen(out_pipe[0], "r");
  char line[4096];
  while (out != nullptr && fgets(line, sizeof line, out) != nullptr) {
    r.output += line;
    if (!r.signalled && r.output.find(trigger) != std::string::npos) {
      kill(pid, SIGINT);
      r.signalled = true;
    }
  }
  if (out != nullptr) fclose(out);
  waitpid(pid, &r.raw_status, 0);
  return r;
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const std::string kG2 = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml";

TEST(CliInterrupt, CtrlCStopsTheRunAndWritesTheResultsSoFar) {
  // The power grasp over 100 s of simulated time: about a minute of wall time, stopped once
  // it has printed its first progress line (after 2 s; the run has started then).
  const std::string csv = ::testing::TempDir() + "interrupted_g2.csv";
  std::remove(csv.c_str());
  const Interrupted r = RunAndInterrupt(
      {"run", kG2, "--t-end", "100", "--no-plots", "--no-summary", "-o", csv}, "real-time factor");
  ASSERT_TRUE(r.signalled) << r.output;
  ASSERT_TRUE(WIFEXITED(r.raw_status)) << "ended by signal " << WTERMSIG(r.raw_status) << "\n"
                                       << r.output;
  EXPECT_EQ(WEXITSTATUS(r.raw_status), 130) << r.output;

  const std::string says = "interrupted at t = ";
  const size_t at = r.output.find(says);
  ASSERT_NE(at, std::string::npos) << r.output;
  const double t_stop = std::stod(r.output.substr(at + says.size()));
  EXPECT_GT(t_stop, 0.0);
  EXPECT_LT(t_stop, 100.0);
  EXPECT_NE(r.output.find("results up to t = "), std::string::npos) << r.output;

  // Every row up to the stop is in the file (one per 1e-4 s, the model's output interval).
  const std::vector<std::string> rows = Lines(csv);
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows.front().rfind("time,", 0), 0u) << rows.front();
  const double t_last = std::stod(rows.back().substr(0, rows.back().find(',')));
  EXPECT_NEAR(t_last, t_stop, 1e-4 + 1e-9);
  EXPECT_NEAR(static_cast<double>(rows.size() - 1), t_last / 1e-4 + 1, 1.5);
}

TEST(CliInterrupt, CtrlCStopsTheSweepAndWritesTheTableOfWhatRan) {
  // Five grasps of 2 s simulated (about 1.5 s of wall time each) on one thread, stopped as
  // the first finishes: the second stops where it is (or never starts, when the signal comes
  // before the worker takes it), the last three never start.
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "swept_g2";
  std::filesystem::remove_all(dir);
  const Interrupted r =
      RunAndInterrupt({"sweep", kG2, "--set", "object.density=160,700,2300,7860,19250", "--t-end",
                       "2", "-o", dir.string()},
                      "run 1/5");
  ASSERT_TRUE(r.signalled) << r.output;
  ASSERT_TRUE(WIFEXITED(r.raw_status)) << "ended by signal " << WTERMSIG(r.raw_status) << "\n"
                                       << r.output;
  EXPECT_EQ(WEXITSTATUS(r.raw_status), 130) << r.output;
  EXPECT_NE(r.output.find("interrupted; the summary covers the runs that ran"), std::string::npos)
      << r.output;

  const std::vector<std::string> table = Lines((dir / "summary.csv").string());
  ASSERT_EQ(table.size(), 6u) << r.output;  // a header and every run
  EXPECT_EQ(table[1].rfind("0,160,ok,2,", 0), 0u) << table[1];
  if (table[2].rfind("1,700,failed,", 0) == 0) {
    EXPECT_NE(table[2].find("interrupted at t = "), std::string::npos) << table[2];
    EXPECT_TRUE(std::filesystem::exists(dir / "run_0001.csv"));  // its rows so far
  } else {
    EXPECT_EQ(table[2].rfind("1,700,not run,", 0), 0u) << table[2];
  }
  for (int i = 3; i <= 5; ++i) EXPECT_NE(table[i].find(",not run,"), std::string::npos) << table[i];
  EXPECT_FALSE(std::filesystem::exists(dir / "run_0002.csv"));
}

}  // namespace
