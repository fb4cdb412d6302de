// Experiment E5: retuning a gain of a compiled System against recompiling the model with it.
//
//   build/bin/tune_bench
//
// - BM_RetuneVsRecompile: the flagship twin models/robot6dof/twin.xml, its ComputedTorque
//   controller's Kp set to a new value each iteration, once by System::SetParameter on a compiled
//   System and once by Model::SetParam + Compile (the model already read: the file is not read
//   again). Both are timed in the same loop. Counters: retune_us, recompile_us (means per
//   iteration), ratio = recompile / retune. Target: ratio >= 10.
// tests/compiler/system_tuning_test.cc checks that the retuned System runs bitwise like the
// recompiled one. Build Release.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "compiler/compile.h"
#include "model/model.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

using Clock = std::chrono::steady_clock;

graph::Model Twin() {
  return xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/robot6dof/twin.xml");
}

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void BM_RetuneVsRecompile(benchmark::State& state) {
  graph::Model model = Twin();
  graph::System system = graph::Compile(model);
  double retune = 0.0, recompile = 0.0;
  long n = 0;
  for (auto _ : state) {
    const double kp = 100.0 + static_cast<double>(n % 7);
    const auto t0 = Clock::now();
    system.SetParameter("controller", "Kp", kp);
    const auto t1 = Clock::now();
    model.SetParam("controller", "Kp", kp);
    graph::System fresh = graph::Compile(model);
    benchmark::DoNotOptimize(fresh.num_blocks());
    const auto t2 = Clock::now();
    retune += Seconds(t0, t1);
    recompile += Seconds(t1, t2);
    ++n;
  }
  state.counters["retune_us"] = 1e6 * retune / static_cast<double>(n);
  state.counters["recompile_us"] = 1e6 * recompile / static_cast<double>(n);
  state.counters["ratio"] = recompile / retune;
}
BENCHMARK(BM_RetuneVsRecompile)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace twinblocks

BENCHMARK_MAIN();
