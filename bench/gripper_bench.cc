// D6: the power grasp G2 of the four-fingered gripper (models/gripper4/g2_power.xml: 12
// position-controlled joints, a free sphere, 13 Kelvin-Voigt contacts with smooth stick-slip
// friction, 13 contact detectors and 12 closure controllers sampled every 1e-4 s) over 0.5 s
// of simulated time, as real-time factor (simulated / wall seconds).
//
//   build/bin/gripper_bench
//
// - BM_G2PaperSetting: ode3 (Bogacki-Shampine) with a fixed step of 1e-5 s, Pozzi et al. 2022's
// ("Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody")
//   setting. The baseline of the other benchmarks, timed in their own loops.
// - BM_G2/<solver>: another setting. Counters: real_time_factor, steps, speedup (paper-setting
//   wall / this wall, both measured in this run; each the least over the iterations), and its
//   agreement with the paper setting
//   (the bar): dt_first_ms (the largest difference of a contact's first-set time, ms;
//   bar 1 ms), dpos_mm (of the sphere's final, smallest and largest x and z, mm; bar 0.1 mm),
//   y_um (the sphere's largest |y|, um; bar 1 um), euler_zx_urad (its largest Euler angle
//   about z or x, urad; bar 10 urad) and agrees (1 when every bar is met).
// Target (the issue): at least 10x real time with the best setting. Klamp't reaches 0.24-0.5x
// on grasps (Rocchi & Hauser, "A Generic Simulator for Underactuated Compliant Hands").
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

const graph::Model& G2Model() {
  static const graph::Model model =
      xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml");
  return model;
}

const graph::System& G2() {
  static const std::unique_ptr<graph::System> system =
      std::make_unique<graph::System>(graph::Compile(G2Model()));
  return *system;
}

struct RunResult {
  double wall = 0.0;  ///< s
  long steps = 0;
  std::vector<double> first_set;  ///< s, per contact (-1: never)
  /// The sphere's position, m: final, smallest and largest of x and z.
  std::vector<double> position;
  double max_abs_y = 0.0;         ///< m
  double max_abs_euler_zx = 0.0;  ///< rad, about z or x
};

double Value(const std::vector<graph::SummaryValue>& values, const std::string& signal,
             graph::SummaryOp op) {
  for (const graph::SummaryValue& v : values) {
    if (v.signal == signal && v.op == op) return v.value;
  }
  std::cerr << "no summary " << signal << "\n";
  std::abort();
}

RunResult Run(const graph::SimulationSettingsValues& settings) {
  graph::Simulator sim(G2(), settings);
  RunResult r;
  r.wall = bench::RunTimed(sim);
  r.steps = sim.stats().solver.steps;
  const std::vector<graph::SummaryValue> values =
      graph::Summarize(G2Model().summaries, G2(), sim.recording());
  using graph::SummaryOp;
  for (int i = 0; i < 13; ++i) {
    r.first_set.push_back(
        Value(values, "set_times.first[" + std::to_string(i) + "]", SummaryOp::kFinal));
  }
  for (SummaryOp op : {SummaryOp::kFinal, SummaryOp::kMin, SummaryOp::kMax}) {
    r.position.push_back(Value(values, "object.position[0]", op));
    r.position.push_back(Value(values, "object.position[2]", op));
    r.max_abs_y = std::max(r.max_abs_y, std::abs(Value(values, "object.position[1]", op)));
  }
  r.max_abs_euler_zx = std::max(Value(values, "object.euler_zyx[0]", SummaryOp::kMaxAbs),
                                Value(values, "object.euler_zyx[2]", SummaryOp::kMaxAbs));
  return r;
}

bool IsFixedStep(const std::string& solver) { return solvers::SolverNamed(solver).is_fixed_step(); }

/// A fixed-step solver with its step, or a variable-step one with rtol (and atol, by default
/// rtol / 1000).
graph::SimulationSettingsValues Setting(const std::string& solver, double step_or_rtol,
                                        double atol = 0.0, int jacobian_steps = 1) {
  graph::SimulationSettingsValues s = G2().settings();
  s.solver = solver;
  if (jacobian_steps > 1) s.jacobian_steps = jacobian_steps;
  if (IsFixedStep(solver)) {
    s.step = step_or_rtol;
  } else {
    s.rtol = step_or_rtol;
    s.atol = atol > 0.0 ? atol : 1e-3 * step_or_rtol;
  }
  return s;
}

void Report(benchmark::State& state, const RunResult& r, double baseline_wall,
            const RunResult& baseline) {
  state.counters["real_time_factor"] = 0.5 / r.wall;
  state.counters["steps"] = static_cast<double>(r.steps);
  state.counters["speedup"] = baseline_wall / r.wall;
  double dt = 0.0, dpos = 0.0;
  for (size_t i = 0; i < r.first_set.size(); ++i) {
    dt = std::max(dt, std::abs(r.first_set[i] - baseline.first_set[i]));
  }
  for (size_t i = 0; i < r.position.size(); ++i) {
    dpos = std::max(dpos, std::abs(r.position[i] - baseline.position[i]));
  }
  state.counters["dt_first_ms"] = 1e3 * dt;
  state.counters["dpos_mm"] = 1e3 * dpos;
  state.counters["y_um"] = 1e6 * r.max_abs_y;
  state.counters["euler_zx_urad"] = 1e6 * r.max_abs_euler_zx;
  // The bar, with dt_first compared at half a sample so that rounding does not count.
  const bool agrees =
      dt <= 1e-3 + 5e-5 && dpos <= 1e-4 && r.max_abs_y < 1e-6 && r.max_abs_euler_zx < 1e-5;
  state.counters["agrees"] = agrees ? 1.0 : 0.0;
}

/// The faster of two runs of the same setting (their results are the same): wall times on a
/// shared machine only ever grow by what else it does, so the least of several is the
/// setting's own.
RunResult Faster(RunResult a, const RunResult& b) {
  if (b.wall < a.wall) a.wall = b.wall;
  return a;
}

void BM_G2PaperSetting(benchmark::State& state) {
  RunResult r;
  bool first = true;
  for (auto _ : state) {
    const RunResult now = Run(Setting("ode3", 1e-5));
    r = first ? now : Faster(r, now);
    first = false;
  }
  Report(state, r, r.wall, r);
}
BENCHMARK(BM_G2PaperSetting)->Unit(benchmark::kMillisecond)->Iterations(3);

/// Another setting, with the paper setting run in the same loop as its baseline.
void BM_G2(benchmark::State& state, const std::string& solver, double step_or_rtol, double atol,
           int jacobian_steps) {
  RunResult r, baseline;
  bool first = true;
  for (auto _ : state) {
    state.PauseTiming();
    const RunResult paper = Run(Setting("ode3", 1e-5));
    state.ResumeTiming();
    const RunResult now = Run(Setting(solver, step_or_rtol, atol, jacobian_steps));
    baseline = first ? paper : Faster(baseline, paper);
    r = first ? now : Faster(r, now);
    first = false;
  }
  Report(state, r, baseline.wall, baseline);
}
/// The settings compared with the paper's: solver, step (fixed step) or rtol, atol (variable
/// step; 0: rtol / 1000), iterations (1 for the slow ones) and, for ode23s, the accepted
/// steps one Jacobian serves.
struct G2Setting {
  const char* name;
  const char* solver;
  double step_or_rtol;
  double atol;
  int iterations;
  int jacobian_steps = 1;
};

constexpr G2Setting kSettings[] = {
    {"ode3_step2e-5", "ode3", 2e-5, 0.0, 3},
    {"ode3_step5e-5", "ode3", 5e-5, 0.0, 3},
    {"ode2_step2e-5", "ode2", 2e-5, 0.0, 3},
    {"cvode_bdf_rtol1e-4", "cvode-bdf", 1e-4, 0.0, 1},
    // Implicit in the mechanism's Jacobian (the contacts' stiffness, damping and friction):
    // fixed steps up to the detectors' sample time. ros2 at 5e-5 s agreed with the paper
    // setting by chance before that Jacobian carried the contacts' stiffness (4.5e-5 s and
    // 2.5e-5 s did not).
    {"ros2_step1e-4", "ros2", 1e-4, 0.0, 3},
    {"ros2_step5e-5", "ros2", 5e-5, 0.0, 3},
    {"ros2_step1e-5", "ros2", 1e-5, 0.0, 1},
    {"ode1be_step1e-4", "ode1be", 1e-4, 0.0, 3},
    // Variable steps, implicit in the same terms: long where the grasp is steady (up to the
    // detectors' sample time), short where the fingers strike, contact onsets located.
    {"ode23s_rtol3e-3_atol1e-6", "ode23s", 3e-3, 1e-6, 3},
    {"ode23s_rtol1e-3_atol1e-6", "ode23s", 1e-3, 1e-6, 3},
    {"ode23s_rtol1e-3_atol1e-5", "ode23s", 1e-3, 1e-5, 3},
    {"ode23s_rtol1e-2_atol1e-5", "ode23s", 1e-2, 1e-5, 3},
    {"ode23s_rtol1e-4_atol1e-7", "ode23s", 1e-4, 1e-7, 1},
    // A Jacobian (and W's factors, where the step repeats) kept over two or three steps.
    {"ode23s_rtol1e-3_atol1e-5_jac2", "ode23s", 1e-3, 1e-5, 3, 2},
    {"ode23s_rtol2e-3_atol1e-5_jac2", "ode23s", 2e-3, 1e-5, 3, 2},
    {"ode23s_rtol6e-3_atol1e-5_jac2", "ode23s", 6e-3, 1e-5, 3, 2},
    {"ode23s_rtol3e-4_atol1e-5_jac2", "ode23s", 3e-4, 1e-5, 3, 2},
    {"ode23s_rtol3e-4_atol1e-5_jac3", "ode23s", 3e-4, 1e-5, 3, 3},
    {"ode23s_rtol2e-3_atol1e-5_jac3", "ode23s", 2e-3, 1e-5, 3, 3},
    {"ode23s_rtol6e-3_atol1e-5_jac3", "ode23s", 6e-3, 1e-5, 3, 3},
    {"ode23s_rtol2e-3_atol1e-5_jac4", "ode23s", 2e-3, 1e-5, 3, 4},
    {"ode23s_rtol6e-3_atol1e-5_jac4", "ode23s", 6e-3, 1e-5, 3, 4},
    {"ode23s_rtol2e-3_atol1e-5_jac6", "ode23s", 2e-3, 1e-5, 3, 6},
    {"ode23s_rtol6e-3_atol1e-5_jac6", "ode23s", 6e-3, 1e-5, 3, 6},
    {"ode23s_rtol6e-3_atol1e-5_jac10", "ode23s", 6e-3, 1e-5, 3, 10},
};

}  // namespace

int main(int argc, char** argv) {
  for (const G2Setting& s : kSettings) {
    benchmark::RegisterBenchmark((std::string("BM_G2/") + s.name).c_str(), BM_G2, s.solver,
                                 s.step_or_rtol, s.atol, s.jacobian_steps)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(s.iterations);
  }
  benchmark::AddCustomContext("profile_guided_optimization", TWINBLOCKS_PGO_MODE);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
