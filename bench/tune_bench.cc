// Experiment E5: retuning a gain of a compiled System against recompiling the model with it.
//
//   build/bin/tune_bench
//
// - BM_RetuneVsRecompile: the flagship twin models/robot6dof/twin.xml, its ComputedTorque
//   controller's Kp set to a new value each iteration, once by System::SetParameter on a compiled
//   System and once by Model::SetParam + Compile (the model already read: the file is not read
//   again). Both are timed in the same loop, in the thread's CPU time. Counters: retune_us,
//   recompile_us (means per iteration), ratio = recompile / retune. Target: ratio >= 10.
// - BM_RetuneContactStiffness: the power grasp G2 (models/gripper4/g2_power.xml), the stiffness
//   of its 13 contacts through one variable: System::SetVariable rebuilds the mechanism from
//   its frame elements, against Model::SetVariable + Compile. Same counters, same target.
// - BM_RetuneTwinFriction: the twin's Coulomb friction torque T_C (six friction elements in the
//   mechanism's drivetrain, and the controller's compensation), the same way.
// tests/compiler/system_tuning_test.cc and mechanism_tuning_test.cc check that the retuned System
// runs bitwise like the recompiled one. Build Release.
#include <benchmark/benchmark.h>
#include <time.h>

#include <string>

#include "common/suggest.h"
#include "compiler/compile.h"
#include "model/model.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

// The thread's CPU time, not the wall clock: a retune takes about a millisecond, and on a
// shared machine one preemption in it would count as much as the work.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
};

graph::Model Twin() {
  return xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/robot6dof/twin.xml");
}

double Seconds(double a, double b) { return b - a; }

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

// Retunes `variable` of `model` to values around `base`, by System::SetVariable and by
// Model::SetVariable + Compile, timed in the same loop.
void RetuneVariableVsRecompile(benchmark::State& state, graph::Model model,
                               const std::string& variable, double base) {
  graph::System system = graph::Compile(model);
  double retune = 0.0, recompile = 0.0;
  long n = 0;
  for (auto _ : state) {
    const double value = base * (1.0 + 0.01 * static_cast<double>(n % 7));
    const auto t0 = Clock::now();
    system.SetVariable(variable, value);
    const auto t1 = Clock::now();
    model.SetVariable(variable, graph::FormatNumber(value));
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

void BM_RetuneContactStiffness(benchmark::State& state) {
  graph::Model model =
      xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml");
  model.SetVariable("k_contact", "1e6");
  model.SetParam("hand", "stiffness", std::string("k_contact"));
  RetuneVariableVsRecompile(state, std::move(model), "k_contact", 1e6);
}
BENCHMARK(BM_RetuneContactStiffness)->Unit(benchmark::kMillisecond);

void BM_RetuneTwinFriction(benchmark::State& state) {
  RetuneVariableVsRecompile(state, Twin(), "T_C", 10.0);
}
BENCHMARK(BM_RetuneTwinFriction)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace twinblocks

BENCHMARK_MAIN();
