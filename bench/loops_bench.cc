// Closed-loop speed: mechanisms with loops, whole runs through the Simulator. Each model
// runs over its span with `ida` (the loops as a stabilized index-2 DAE) and with ODE settings
// that keep F1's accuracy (constraints to 1e-9, energy to 1e-8 relative) at the model's own
// tolerances (rtol 1e-11, atol 1e-12): cvode-adams is the fastest of them, ode45 close behind
// and the robust choice (docs/loops.md, "Speed"); cvode-bdf is there for comparison.
//
//   build/bin/loops_bench
//   build/bin/loops_bench --benchmark_filter=four_bar/ida
//
// Each benchmark reports the wall time of one run (compiled once, outside the timing), the
// real-time factor (simulated seconds per wall second), and the solver's accepted steps and
// residual or derivative evaluations.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace {

namespace graph = twinblocks::graph;

/// A closed-loop model and how long it runs.
struct LoopModel {
  const char* name;
  const char* file;  ///< relative to the source tree
  double t_end;      ///< s
};

/// The models F6 times. The Stewart platform (5 s) joins this list when its model exists.
const std::vector<LoopModel>& Models() {
  static const std::vector<LoopModel> models = {
      {"four_bar", "models/mechanisms/four_bar.xml", 10.0},
      {"four_bar_redundant", "models/mechanisms/four_bar_redundant.xml", 10.0},
  };
  return models;
}

/// A solver setting: the solver and its relative tolerance (0: the model's own).
struct SolverSetting {
  const char* solver;
  double rtol;
};

void RunModel(benchmark::State& state, const LoopModel& model, SolverSetting setting) {
  const graph::System system = graph::Compile(
      twinblocks::xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/" + model.file));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = setting.solver;
  settings.t_end = model.t_end;
  if (setting.rtol > 0.0) settings.rtol = setting.rtol;
  long steps = 0, evals = 0;
  for (auto _ : state) {
    graph::Simulator sim(system, settings);
    const graph::SimulationOutcome outcome = sim.Run();
    if (!outcome.ok) {
      state.SkipWithError(outcome.error.c_str());
      return;
    }
    steps = sim.stats().solver.steps;
    evals = sim.stats().solver.rhs_evals;
  }
  state.counters["real_time_factor"] = benchmark::Counter(
      model.t_end - settings.t_start, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["evals"] = static_cast<double>(evals);
}

const int kRegistered = [] {
  const SolverSetting settings[] = {
      {"ida", 0.0},          // the DAE
      {"ode45", 0.0},        // one-step ODE: projections cost it nothing
      {"cvode-adams", 0.0},  // the fastest ODE setting that keeps F1's accuracy
      {"cvode-bdf", 0.0},
  };
  for (const LoopModel& model : Models()) {
    for (const SolverSetting& s : settings) {
      benchmark::RegisterBenchmark((std::string(model.name) + "/" + s.solver).c_str(), RunModel,
                                   model, s)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->MinTime(0.5);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
