// Start-up of the `twinblocks` program: what a script pays per call when it runs the command
// once per scenario. Each row spawns the program and waits for it; the baseline is /bin/true
// spawned the same way in the same run (the cost of a process at all), and `vs_true` is the
// row's time over it.
//
//   build/bin/startup_bench
//   TWINBLOCKS_BENCH_CLI=/other/build/bin/twinblocks build/bin/startup_bench   (another build)
//
// - BM_True: /bin/true, the baseline.
// - BM_Version: `twinblocks --version`: loading, relocating and initializing the program and
//   its libraries, and nothing else. The optional libraries are plugins, opened on first use
//   (common/detail/plugin_loader.h); this row is what that saves.
// - BM_RunMassSpringDamper: `twinblocks run examples/mass_spring_damper.xml` to a CSV file:
//   read, compile, simulate 10 s, write.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

// Spawns `argv` with stdout and stderr on /dev/null and waits for it; aborts the benchmark if
// it does not exit with status 0 (a failed start would time the error path).
void SpawnAndWait(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (spawned != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    std::abort();
  }
}

// The median wall time of spawning /bin/true, measured once per program run.
double TrueSeconds() {
  static const double seconds = [] {
    std::vector<double> times;
    for (int i = 0; i < 101; ++i) {
      const auto t0 = Clock::now();
      SpawnAndWait({"/bin/true"});
      times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::nth_element(times.begin(), times.begin() + 50, times.end());
    return times[50];
  }();
  return seconds;
}

void Time(benchmark::State& state, const std::vector<std::string>& args) {
  const double baseline = TrueSeconds();
  double total = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    SpawnAndWait(args);
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const double mean = total / static_cast<double>(state.iterations());
  state.counters["ms"] = 1e3 * mean;
  state.counters["true_ms"] = 1e3 * baseline;
  state.counters["vs_true"] = mean / baseline;
}

// The program timed: this build's, or the one TWINBLOCKS_BENCH_CLI names.
std::string Cli() {
  const char* other = std::getenv("TWINBLOCKS_BENCH_CLI");
  return other != nullptr && *other != '\0' ? other : TWINBLOCKS_CLI;
}

void BM_True(benchmark::State& state) { Time(state, {"/bin/true"}); }
BENCHMARK(BM_True)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Version(benchmark::State& state) { Time(state, {Cli(), "--version"}); }
BENCHMARK(BM_Version)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_RunMassSpringDamper(benchmark::State& state) {
  const std::string csv = "/tmp/twinblocks_startup_bench_" + std::to_string(getpid()) + ".csv";
  Time(state, {Cli(), "run", TWINBLOCKS_SOURCE_DIR "/examples/mass_spring_damper.xml", "--quiet",
               "--no-plots", "-o", csv});
  std::remove(csv.c_str());
}
BENCHMARK(BM_RunMassSpringDamper)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
