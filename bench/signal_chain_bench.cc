// A9 Speed: ns per block evaluation in a 1000-block signal chain with ode4, against a
// hand-written loop doing the same arithmetic (the baseline, measured in the same run).
//
//   build/bin/signal_chain_bench
//
// Counters: ns_per_block for the framework; baseline_ns_per_op for the hand-written loop;
// the ratio of the two is what the framework costs over code written for one model.
#include <chrono>
#include <cmath>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/signal_chain_model.h"
#include "graph/compile.h"
#include "graph/simulator.h"

namespace {

constexpr int kBlocks = 1000;
constexpr double kStep = 1e-3;
constexpr double kTEnd = 1.0;

void BM_SignalChainOde4(benchmark::State& state) {
  const twinblocks::graph::System system =
      twinblocks::graph::Compile(twinblocks::bench::MakeSignalChain(kBlocks));
  twinblocks::graph::SimulationSettingsValues settings;
  settings.solver = "ode4";
  settings.step = kStep;
  settings.t_end = kTEnd;
  settings.output_interval = 0.1;
  double evaluations = 0.0;
  double seconds = 0.0;
  for (auto _ : state) {
    state.PauseTiming();
    twinblocks::graph::Simulator sim(system, settings);
    sim.Initialize();
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    const auto outcome = sim.Run();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(outcome.t);
    // Block output evaluations: every stage at each solver evaluation and each major step.
    evaluations += static_cast<double>(sim.stats().solver.rhs_evals) *
                       system.minor_order().size() +
                   static_cast<double>(sim.stats().major_steps) * system.major_order().size();
  }
  state.counters["ns_per_block"] = seconds * 1e9 / evaluations;
}
BENCHMARK(BM_SignalChainOde4)->Unit(benchmark::kMillisecond);

// The same model written by hand for this one chain: RK4 over x' = prod(k) * sin(2 t).
void BM_HandWrittenBaseline(benchmark::State& state) {
  std::vector<double> gains(kBlocks - 2);
  for (int i = 1; i < kBlocks - 1; ++i) gains[i - 1] = i % 2 == 0 ? 1.001 : 0.999;
  std::vector<double> signal(kBlocks);
  auto chain = [&](double t) {
    signal[0] = std::sin(2.0 * t);
    for (int i = 1; i < kBlocks - 1; ++i) signal[i] = gains[i - 1] * signal[i - 1];
    return signal[kBlocks - 2];
  };
  double operations = 0.0;
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    double x = 0.0, t = 0.0;
    const int steps = static_cast<int>(std::lround(kTEnd / kStep));
    for (int n = 0; n < steps; ++n) {
      const double k1 = chain(t);
      const double k2 = chain(t + kStep / 2);
      const double k3 = chain(t + kStep / 2);
      const double k4 = chain(t + kStep);
      x += kStep / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      t += kStep;
      benchmark::DoNotOptimize(x);
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    operations += 4.0 * steps * (kBlocks - 1);
  }
  state.counters["baseline_ns_per_op"] = seconds * 1e9 / operations;
}
BENCHMARK(BM_HandWrittenBaseline)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
