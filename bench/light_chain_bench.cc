// Issue 43's compliant finger in small: three light links (about 3e-6 kg m^2 each) on
// revolute joints with springs of 1 N m/rad and dampers of 0.05 N m s/rad, the last two
// coupled by a JointCoupler, under gravity and a 2 Hz torque
// (tests/data/xml/light_coupled_chain.xml, 1 s), and the same finger pressing a free ball
// (light_chain_pressing_ball.xml, 0.2 s). Its fast modes (I / damping near 1e-5 s) make it
// stiff: the implicit solvers step over them with the mechanism's Jacobian of the joints'
// springs, dampers and the coupler's rows (Mechanism::DoCalcStiffJacobian).
//
//   build/bin/light_chain_bench
//
// - BM_Chain/ode23s_perturbation (and BM_Ball/...): ode23s at rtol 1e-3, atol 1e-6 with a
//   differenced Jacobian (one evaluation per state and Jacobian: what ode23s took for the
//   chain before the mechanism gave these terms). The baseline of the others, timed in their
//   own loops.
// - BM_Chain/<setting>: another setting. Counters: real_time_factor (simulated / wall
//   seconds), steps, evals (of the diagram), speedup (baseline wall / this wall, both measured
//   in this run; each the least over the iterations), dq_mrad (the largest difference of a
//   joint angle from ode45 at rtol 1e-10 over the logged rows, mrad).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/timed_run.h"
#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace {

using namespace twinblocks;
using JacobianMethod = graph::SimulationSettingsValues::JacobianMethod;

const graph::System& Model(const std::string& file) {
  static std::map<std::string, std::unique_ptr<graph::System>> systems;
  std::unique_ptr<graph::System>& s = systems[file];
  if (!s) {
    s = std::make_unique<graph::System>(graph::Compile(
        xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/tests/data/xml/" + file)));
  }
  return *s;
}

struct RunResult {
  double wall = 0.0;  ///< s
  double t_end = 0.0;
  long steps = 0, evals = 0;
  std::vector<std::vector<double>> q;  ///< j1, j2, j3 at the logged rows, rad
};

struct Setting {
  const char* name;
  const char* solver;
  JacobianMethod method;
  double rtol;  ///< or the fixed step
  int iterations;
};

RunResult Run(const std::string& file, const Setting& setting) {
  const graph::System& system = Model(file);
  graph::SimulationSettingsValues s = system.settings();
  s.solver = setting.solver;
  s.jacobian_method = setting.method;
  if (s.solver == "ros2") {
    s.step = setting.rtol;
  } else {
    s.rtol = setting.rtol;
    s.atol = setting.rtol < 1e-6 ? 1e-12 : 1e-6;
  }
  graph::Simulator sim(system, s);
  RunResult r;
  r.wall = bench::RunTimed(sim);
  r.t_end = s.t_end;
  r.steps = sim.stats().solver.steps;
  r.evals = sim.stats().solver.rhs_evals;
  const graph::Recording& rec = sim.recording();
  for (const char* name : {"j1.q", "j2.q", "j3.q"}) {
    std::vector<double> column;
    const int c = rec.FindColumn(name);
    if (c < 0) {
      std::cerr << "no signal " << name << "\n";
      std::abort();
    }
    for (int row = 0; row < rec.num_rows(); ++row) column.push_back(rec.value(row, c));
    r.q.push_back(column);
  }
  return r;
}

const RunResult& Reference(const std::string& file) {
  static std::map<std::string, RunResult> references;
  auto it = references.find(file);
  if (it == references.end()) {
    it = references.emplace(file, Run(file, {"ode45", "ode45", JacobianMethod::kAuto, 1e-10, 1}))
             .first;
  }
  return it->second;
}

/// The faster of two runs of the same setting (their results are the same).
RunResult Faster(RunResult a, const RunResult& b) {
  if (b.wall < a.wall) a.wall = b.wall;
  return a;
}

void Report(benchmark::State& state, const RunResult& r, double baseline_wall,
            const RunResult& reference) {
  state.counters["real_time_factor"] = r.t_end / r.wall;
  state.counters["steps"] = static_cast<double>(r.steps);
  state.counters["evals"] = static_cast<double>(r.evals);
  state.counters["speedup"] = baseline_wall / r.wall;
  double dq = 0.0;
  for (size_t j = 0; j < r.q.size(); ++j) {
    for (size_t i = 0; i < std::min(r.q[j].size(), reference.q[j].size()); ++i) {
      dq = std::max(dq, std::abs(r.q[j][i] - reference.q[j][i]));
    }
  }
  state.counters["dq_mrad"] = 1e3 * dq;
}

constexpr Setting kBaseline = {"ode23s_perturbation", "ode23s", JacobianMethod::kPerturbation, 1e-3,
                               5};

/// A setting, with the baseline run in the same loop.
void BM_Setting(benchmark::State& state, const std::string& file, const Setting& setting) {
  const RunResult& reference = Reference(file);
  RunResult r, baseline;
  bool first = true;
  for (auto _ : state) {
    state.PauseTiming();
    const RunResult base = Run(file, kBaseline);
    state.ResumeTiming();
    const RunResult now = Run(file, setting);
    baseline = first ? base : Faster(baseline, base);
    r = first ? now : Faster(r, now);
    first = false;
  }
  Report(state, r, baseline.wall, reference);
}

constexpr Setting kSettings[] = {
    kBaseline,
    {"ode23s_blocks", "ode23s", JacobianMethod::kBlocks, 1e-3, 5},
    {"ode23s_blocks_rtol1e-4", "ode23s", JacobianMethod::kBlocks, 1e-4, 5},
    {"cvode_bdf_perturbation", "cvode-bdf", JacobianMethod::kPerturbation, 1e-3, 5},
    {"cvode_bdf_blocks", "cvode-bdf", JacobianMethod::kBlocks, 1e-3, 5},
    {"ros2_blocks_step1e-3", "ros2", JacobianMethod::kBlocks, 1e-3, 5},
    {"ode23_explicit", "ode23", JacobianMethod::kAuto, 1e-3, 3},
};

}  // namespace

int main(int argc, char** argv) {
  for (const auto& [prefix, file] :
       {std::pair<const char*, const char*>{"BM_Chain/", "light_coupled_chain.xml"},
        std::pair<const char*, const char*>{"BM_Ball/", "light_chain_pressing_ball.xml"}}) {
    for (const Setting& s : kSettings) {
      benchmark::RegisterBenchmark((std::string(prefix) + s.name).c_str(), BM_Setting,
                                   std::string(file), s)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(s.iterations);
    }
  }
  benchmark::AddCustomContext("profile_guided_optimization", TWINBLOCKS_PGO_MODE);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
