// Ctrl-C during `twinblocks run`: the run stops after the step in progress, the results so
// far are written, and the status is 130 (128 + SIGINT, what a shell reports for Ctrl-C).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

TEST(CliInterrupt, CtrlCStopsTheRunAndWritesTheResultsSoFar) {
  // The power grasp over 100 s of simulated time: about a minute of wall time, stopped once
  // it has printed its first progress line (after 2 s; the run has started then).
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml";
  const std::string csv = ::testing::TempDir() + "interrupted_g2.csv";
  std::remove(csv.c_str());
  int err_pipe[2];
  ASSERT_EQ(pipe(err_pipe), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(err_pipe[1], STDERR_FILENO);
    close(err_pipe[0]);
    close(err_pipe[1]);
    if (freopen("/dev/null", "w", stdout) == nullptr) _exit(127);
    execl(TWINBLOCKS_CLI, TWINBLOCKS_CLI, "run", model.c_str(), "--t-end", "100", "--no-plots",
          "--no-summary", "-o", csv.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err_pipe[1]);
  FILE* err = fdopen(err_pipe[0], "r");
  ASSERT_NE(err, nullptr);
  std::string text;
  char line[4096];
  bool signalled = false;
  while (fgets(line, sizeof line, err) != nullptr) {
    text += line;
    if (!signalled && text.find("real-time factor") != std::string::npos) {
      ASSERT_EQ(kill(pid, SIGINT), 0);
      signalled = true;
    }
  }
  fclose(err);
  int raw = 0;
  ASSERT_EQ(waitpid(pid, &raw, 0), pid);
  ASSERT_TRUE(signalled) << text;
  ASSERT_TRUE(WIFEXITED(raw)) << "ended by signal " << WTERMSIG(raw) << "\n" << text;
  EXPECT_EQ(WEXITSTATUS(raw), 130) << text;

  const std::string says = "interrupted at t = ";
  const size_t at = text.find(says);
  ASSERT_NE(at, std::string::npos) << text;
  const double t_stop = std::stod(text.substr(at + says.size()));
  EXPECT_GT(t_stop, 0.0);
  EXPECT_LT(t_stop, 100.0);
  EXPECT_NE(text.find("results up to t = "), std::string::npos) << text;

  // Every row up to the stop is in the file (one per 1e-4 s, the model's output interval).
  std::ifstream in(csv);
  std::string row, last;
  int rows = 0;
  std::getline(in, row);
  EXPECT_EQ(row.rfind("time,", 0), 0u) << row;
  while (std::getline(in, row)) {
    last = row;
    ++rows;
  }
  ASSERT_FALSE(last.empty());
  const double t_last = std::stod(last.substr(0, last.find(',')));
  EXPECT_NEAR(t_last, t_stop, 1e-4 + 1e-9);
  EXPECT_NEAR(rows, t_last / 1e-4 + 1, 1.5);
}

}  // namespace
