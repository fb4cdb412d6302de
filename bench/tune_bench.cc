// Experiment E5: retuning a gain of a compiled System against recompiling the model with it.
//
//   build/bin/tune_bench
//
// - BM_RetuneVsRecompile: the flagship twin models/robot6dof/twin.xml, its ComputedTorque
//   controller's Kp set to a new value each iteration, once by System::SetParameter on a compiled
//   System and once by Model::SetParam + Compile (the model already read: the file is not read
//   again). Both are timed in the same loop, in batches that alternate, in the thread's CPU
//   time. Counters: retune_us, recompile_us (means per call), ratio = recompile / retune.
//   Target: ratio >= 10.
// - BM_RetuneContactStiffness: the power grasp G2 (models/gripper4/g2_power.xml), the stiffness
//   of its 13 contacts through one variable: System::SetVariable patches the contact laws
//   into the mechanism (PatchMechanism), against Model::SetVariable + Compile. Same counters,
//   same target.
// - BM_RetuneTwinFriction: the twin's Coulomb friction torque T_C (six friction elements in the
//   mechanism's drivetrain, and the controller's compensation), the same way.
// tests/compiler/system_tuning_test.cc and mechanism_tuning_test.cc check that the retuned System
// runs bitwise like the recompiled one. Build Release.
#include <benchmark/benchmark.h>
#include <time.h>

#include <optional>
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

// Times `retune(system, i)` on a System compiled from `model` against `edit(model, i)` followed
// by a Compile, for i = 0, 1, ...: each iteration runs a batch of retunes, then a batch of
// recompiles, so that the two alternate through the run on the same machine. Batches, not
// single calls in turn, because that is how they are used: a sweep that retunes does it run
// after run, never compiling in between, and a compile in between would leave each retune
// with the caches and the heap a compile leaves. Counters retune_us, recompile_us (means per
// call) and ratio = recompile / retune.
template <class Retune, class Edit>
void RetuneVsRecompileLoop(benchmark::State& state, graph::Model model, Retune retune, Edit edit) {
  constexpr int kBatch = 8;
  graph::System system = graph::Compile(model);
  // A recompile replaces the System it recompiles: freeing the old one is part of its cost.
  std::optional<graph::System> recompiled;
  double retune_s = 0.0, recompile_s = 0.0;
  long n = 0;
  for (auto _ : state) {
    const double t0 = Clock::now();
    for (int k = 0; k < kBatch; ++k) retune(system, n + k);
    const double t1 = Clock::now();
    for (int k = 0; k < kBatch; ++k) {
      edit(model, n + k);
      recompiled.reset();
      recompiled.emplace(graph::Compile(model));
      benchmark::DoNotOptimize(recompiled->num_blocks());
    }
    const double t2 = Clock::now();
    retune_s += t1 - t0;
    recompile_s += t2 - t1;
    n += kBatch;
  }
  state.counters["retune_us"] = 1e6 * retune_s / static_cast<double>(n);
  state.counters["recompile_us"] = 1e6 * recompile_s / static_cast<double>(n);
  state.counters["ratio"] = recompile_s / retune_s;
}

void BM_RetuneVsRecompile(benchmark::State& state) {
  auto kp = [](long n) { return 100.0 + static_cast<double>(n % 7); };
  RetuneVsRecompileLoop(
      state, Twin(), [&](graph::System& s, long n) { s.SetParameter("controller", "Kp", kp(n)); },
      [&](graph::Model& m, long n) { m.SetParam("controller", "Kp", kp(n)); });
}
BENCHMARK(BM_RetuneVsRecompile)->Unit(benchmark::kMillisecond);

// Retunes `variable` of `model` to values around `base`, by System::SetVariable and by
// Model::SetVariable + Compile.
void RetuneVariableVsRecompile(benchmark::State& state, graph::Model model,
                               const std::string& variable, double base) {
  auto value = [base](long n) { return base * (1.0 + 0.01 * static_cast<double>(n % 7)); };
  RetuneVsRecompileLoop(
      state, std::move(model), [&](graph::System& s, long n) { s.SetVariable(variable, value(n)); },
      [&](graph::Model& m, long n) { m.SetVariable(variable, graph::FormatNumber(value(n))); });
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
