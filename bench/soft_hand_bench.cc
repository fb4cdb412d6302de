// Experiment RH1 of issue 43: the Pisa/IIT SoftHand (33 revolute joints, 14 matched-joint
// couplers, one rigid tendon, 68 Kelvin-Voigt contacts with smooth stick-slip friction) closes
// on a sphere in 0.5 s and lifts it 0.1 m over 1.5 s (models/hands/rh1_grasp_lift.xml, 2.5 s),
// as real-time factor (simulated / wall seconds), against a tight reference run.
//
//   build/bin/soft_hand_bench
//
// - BM_Rh1Reference: cvode-bdf at rtol 1e-6, atol 1e-8: the baseline and the reference
//   position of the sphere.
// - BM_Rh1/<setting>: counters real_time_factor, steps, speedup (reference wall / this wall,
//   both measured in this run, each the least over its iterations), dpos_mm (the largest
//   difference of the sphere's final position from the reference's, mm; the bar 1 mm)
//   and agrees (1 when within it).
// The paper's setting is ode1be (linearly implicit Euler) at 1 ms, Rocchi & Hauser 2016's
// ("A Generic Simulator for Underactuated Compliant Hands") physics substep, whose commands
// change every 10 ms: here they are continuous, so only the 1 ms step carries over. Their
// emulator runs this kind of grasp at 0.24 to 0.5 times real time; the target is 50.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/timed_run.h"
#include "compiler/compile.h"
#include "io/summary.h"
#include "runtime/simulator.h"
#include "solvers/solver_table.h"
#include "xml/model_reader.h"

namespace {

using namespace twinblocks;

const graph::Model& Rh1Model() {
  static const graph::Model model =
      xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/hands/rh1_grasp_lift.xml");
  return model;
}

const graph::System& Rh1() {
  static const std::unique_ptr<graph::System> system =
      std::make_unique<graph::System>(graph::Compile(Rh1Model()));
  return *system;
}

struct RunResult {
  double wall = 0.0;  ///< s
  long steps = 0;
  std::vector<double> position;  ///< the sphere's final position, m
};

RunResult Run(const graph::SimulationSettingsValues& settings) {
  graph::Simulator sim(Rh1(), settings);
  RunResult r;
  r.wall = bench::RunTimed(sim);
  r.steps = sim.stats().solver.steps;
  for (const graph::SummaryValue& v :
       graph::Summarize(Rh1Model().summaries, Rh1(), sim.recording())) {
    if (v.signal.rfind("sphere_joint.position[", 0) == 0 && v.op == graph::SummaryOp::kFinal) {
      r.position.push_back(v.value);
    }
  }
  if (r.position.size() != 3) {
    std::cerr << "the model no longer summarizes the sphere's final position\n";
    std::abort();
  }
  return r;
}

struct Rh1Setting {
  const char* name;
  const char* solver;
  double step_or_rtol;
  double atol = 0.0;  ///< 0: rtol / 100
  bool zero_crossings = true;
  int jacobian_steps = 0;        ///< 0: the solver's own rule
  double output_interval = 0.0;  ///< s; 0: the model's (1 ms)
};

graph::SimulationSettingsValues Setting(const std::string& solver, double step_or_rtol,
                                        double atol = 0.0, bool zero_crossings = true,
                                        int jacobian_steps = 0, double output_interval = 0.0) {
  graph::SimulationSettingsValues s = Rh1().settings();
  s.solver = solver;
  if (solvers::SolverNamed(solver).is_fixed_step()) {
    s.step = step_or_rtol;
  } else {
    s.rtol = step_or_rtol;
    s.atol = atol > 0.0 ? atol : 1e-2 * step_or_rtol;
  }
  s.zero_crossings = zero_crossings;
  if (jacobian_steps > 0) s.jacobian_steps = jacobian_steps;
  if (output_interval > 0.0) s.output_interval = output_interval;
  return s;
}

RunResult Faster(RunResult a, const RunResult& b) {
  if (b.wall < a.wall) a.wall = b.wall;
  return a;
}

void Report(benchmark::State& state, const RunResult& r, const RunResult& reference) {
  state.counters["real_time_factor"] = 2.5 / r.wall;
  state.counters["steps"] = static_cast<double>(r.steps);
  state.counters["speedup"] = reference.wall / r.wall;
  double dpos = 0.0;
  for (size_t i = 0; i < r.position.size(); ++i) {
    dpos = std::max(dpos, std::abs(r.position[i] - reference.position[i]));
  }
  state.counters["dpos_mm"] = 1e3 * dpos;
  state.counters["agrees"] = dpos <= 1e-3 ? 1.0 : 0.0;
}

graph::SimulationSettingsValues ReferenceSetting() { return Setting("cvode-bdf", 1e-6, 1e-8); }

void BM_Rh1Reference(benchmark::State& state) {
  RunResult r;
  bool first = true;
  for (auto _ : state) {
    const RunResult now = Run(ReferenceSetting());
    r = first ? now : Faster(r, now);
    first = false;
  }
  Report(state, r, r);
}
BENCHMARK(BM_Rh1Reference)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Rh1(benchmark::State& state, const Rh1Setting& setting) {
  RunResult r, reference;
  bool first = true;
  for (auto _ : state) {
    state.PauseTiming();
    const RunResult ref = Run(ReferenceSetting());
    state.ResumeTiming();
    const RunResult now =
        Run(Setting(setting.solver, setting.step_or_rtol, setting.atol, setting.zero_crossings,
                    setting.jacobian_steps, setting.output_interval));
    reference = first ? ref : Faster(reference, ref);
    r = first ? now : Faster(r, now);
    first = false;
  }
  Report(state, r, reference);
}

// The best: ode23s with loose tolerances (atol 1e-2 on radians, metres and their rates; the
// sphere's position still well within the 1 mm the issue allows), one Jacobian for up to four
// steps (ode23s is a W-method: its order holds with an older Jacobian, and a step only
// refactors W), and logging every 10 ms, the paper's outer step (every logged row is an
// evaluation of the whole hand: at the model's 1 ms they are 2500). The contacts' onsets are
// located (zero crossings on): the hand closes in steps of up to 50 ms, and a contact switched
// on only at the next major step would begin 50 ms deep. The same with the model's 1 ms rows,
// and without the crossings, follow it.
constexpr Rh1Setting kSettings[] = {
    {"best_ode23s_rtol1e-2_atol1e-2_jac4_rows10ms", "ode23s", 1e-2, 1e-2, true, 4, 1e-2},
    {"ode23s_rtol1e-2_atol1e-2_jac4", "ode23s", 1e-2, 1e-2, true, 4},
    {"ode23s_rtol1e-2_atol1e-2_zc_off_jac4_rows10ms", "ode23s", 1e-2, 1e-2, false, 4, 1e-2},
    {"ode23s_rtol1e-2", "ode23s", 1e-2},
    {"ode23s_rtol1e-3", "ode23s", 1e-3},
    {"cvode_bdf_rtol1e-3", "cvode-bdf", 1e-3},
    {"ros2_step1e-3", "ros2", 1e-3},
    {"paper_ode1be_step1e-3_rows10ms", "ode1be", 1e-3, 0.0, true, 0, 1e-2},
};

const bool kRegistered = [] {
  for (const Rh1Setting& s : kSettings) {
    benchmark::RegisterBenchmark((std::string("BM_Rh1/") + s.name).c_str(), BM_Rh1, s)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
