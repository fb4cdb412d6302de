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

// Times, in the same loop, `retune(system, i)` on a System compiled from `model` against
// `edit(model, i)` followed by a Compile, for i = 0, 1, ...; counters retune_us, recompile_us
// and ratio = recompile / retune.
template <class Retune, class Edit>
void RetuneVsRecompileLoop(benchmark::State& state, graph::Model model, Retune retune, Edit edit) {
  graph::System system = graph::Compile(model);
  double retune_s = 0.0, recompile_s = 0.0;
  long n = 0;
  for (auto _ : state) {
    const double t0 = Clock::now();
    retune(system, n);
    const double t1 = Clock::now();
    edit(model, n);
    graph::System fresh = graph::Compile(model);
    benchmark::DoNotOptimize(fresh.num_blocks());
    const double t2 = Clock::now();
    retune_s += t1 - t0;
    recompile_s += t2 - t1;
    ++n;
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
