// A9 Speed: ns per block evaluation in a 1000-block signal chain with ode4, against a
// hand-written loop doing the same arithmetic (the baseline, measured in the same run).
//
//   build/bin/signal_chain_bench
//
// Counters: ns_per_block for the framework, ratio_to_hand_written against the same arithmetic
// written by hand for this one model (timed in the same benchmark), and ns_per_op for that
// hand-written loop on its own.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "bench/signal_chain_model.h"
#include "compiler/compile.h"
#include "runtime/simulator.h"

namespace {

constexpr int kBlocks = 1000;
constexpr double kStep = 1e-3;
constexpr double kTEnd = 1.0;

double RunHandWrittenChain(double* operations);

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
    evaluations += static_cast<double>(sim.stats().solver.rhs_evals) * system.minor_order().size() +
                   static_cast<double>(sim.stats().major_steps) * system.major_order().size();
  }
  state.counters["ns_per_block"] = seconds * 1e9 / evaluations;
  // The baseline, timed in this same benchmark: the framework's cost per block evaluation
  // over the hand-written loop's cost per chain link.
  double baseline_ops = 0.0;
  const double baseline_seconds = RunHandWrittenChain(&baseline_ops);
  state.counters["ratio_to_hand_written"] =
      (seconds * 1e9 / evaluations) / (baseline_seconds * 1e9 / baseline_ops);
}
BENCHMARK(BM_SignalChainOde4)->Unit(benchmark::kMillisecond);

// The same model written by hand for this one chain: RK4 over x' = prod(k) * sin(2 t).
// Returns the seconds taken; `operations` receives the number of chain-link evaluations.
double RunHandWrittenChain(double* operations) {
  static std::vector<double> gains, signal;
  if (gains.empty()) {
    gains.resize(kBlocks - 2);
    for (int i = 1; i < kBlocks - 1; ++i) gains[i - 1] = i % 2 == 0 ? 1.001 : 0.999;
    signal.resize(kBlocks);
  }
  auto chain = [&](double t) {
    signal[0] = std::sin(2.0 * t);
    for (int i = 1; i < kBlocks - 1; ++i) signal[i] = gains[i - 1] * signal[i - 1];
    return signal[kBlocks - 2];
  };
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
  *operations = 4.0 * steps * (kBlocks - 1);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BM_HandWrittenBaseline(benchmark::State& state) {
  double operations = 0.0, seconds = 0.0;
  for (auto _ : state) {
    double ops = 0.0;
    seconds += RunHandWrittenChain(&ops);
    operations += ops;
  }
  state.counters["ns_per_op"] = seconds * 1e9 / operations;
}
BENCHMARK(BM_HandWrittenBaseline)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
