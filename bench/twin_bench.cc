// Experiments E4 and E2 of the reference arm as whole models, compiled once and run with their
// own settings: wall time per run, against baselines measured in the same run (acceptance C5).
//
//   build/bin/twin_bench
//
// - BM_E4TwinDefault: models/robot6dof/twin.xml (arm, link-side friction, gears, one PMSM per
//   joint under FOC, computed-torque control) over 4 s with its own solver (cvode-bdf,
//   rtol 1e-7, atol 1e-9). Target: under 100 ms wall. Counters: best_ms, real_time_factor
//   (simulated / wall seconds), steps, error_rad (see below).
// - BM_E4TwinOde45: the same with ode45 at the loosest rtol (from 1e-2 down by sqrt(10); atol
//   stays the model's) whose error is at most the default solver's; the default run is timed in
//   the same loop as the baseline. Counters: ode45_rtol, error_rad and default_error_rad,
//   looser_rtol_error_rad (ode45's error at rtol * sqrt(10), NaN when rtol is the first tried),
//   ode45_ms and default_ms, steps of both, ratio = ode45 wall / default wall. No target: it
//   shows what an implicit solver buys on this stiff model (2 kHz current loops, a friction
//   curve of slope ~1000 N m s/rad near zero speed), where ode45's step is bound by stability.
//   error_rad: max over the output rows (every 0.01 s) and joints of |q - q_ref|, q_ref from
//   ode45 at rtol 1e-10, atol 1e-12, computed once in this program.
// - BM_E4Derivatives: one evaluation of the twin's derivatives x' = f(t, x) (every continuous
//   block's outputs, then every block's derivatives: what a solver's right-hand side call does),
//   at the state the default run reaches at t = 1 s; baseline in the same loop: one Aba
//   (articulated-body forward dynamics) of the bare arm's kinematic tree at the same q, qd and
//   joint torques. Counters: ns_per_eval, ns_aba, ratio = twin evaluation / Aba, nx. No target.
//   The evaluation is Simulator::EvaluateDerivatives, the solver's own right-hand side.
// - BM_E2InverseDynamics: models/robot6dof/e2_inverse_dynamics.xml (open-loop RNEA torques on
//   the ideal arm) with its own settings (ode45, rtol 1e-12). Counters: best_ms,
//   real_time_factor, steps, max_tracking_error_rad. No target; Boschetti & Sinico 2024, Table
//   4: 4.31 s in Simulink.
// E1 is in e1_bench. Build Release; "Library was built as DEBUG" in the output is about Debian's
// libbenchmark itself, not about the code measured.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "bench/timed_run.h"
#include "compiler/compile.h"
#include "physics/multibody/algorithms.h"
#include "runtime/simulator.h"
#include "tests/support/test_trees.h"
#include "xml/model_reader.h"

namespace {

using namespace twinblocks;
using Clock = std::chrono::steady_clock;
namespace mb = twinblocks::multibody;

constexpr int kJoints = 6;

/// The column of element j of a logged vector: "name[j]".
std::string Element(const std::string& name, int j) { return name + "[" + std::to_string(j) + "]"; }

const graph::System& CompiledModel(const std::string& relative) {
  // One System per model file, compiled on first use.
  static std::vector<std::pair<std::string, std::unique_ptr<graph::System>>> cache;
  for (const auto& [name, system] : cache) {
    if (name == relative) return *system;
  }
  cache.emplace_back(relative, std::make_unique<graph::System>(graph::Compile(xml::ReadModelFile(
                                   std::string(TWINBLOCKS_SOURCE_DIR) + "/" + relative))));
  return *cache.back().second;
}

const graph::System& Twin() { return CompiledModel("models/robot6dof/twin.xml"); }

/// What one run gives a benchmark.
struct RunResult {
  double wall = 0.0;  ///< s
  long steps = 0;
  graph::Recording recording;
};

RunResult Run(const graph::System& system, const graph::SimulationSettingsValues& settings) {
  graph::Simulator sim(system, settings);
  RunResult r;
  r.wall = bench::RunTimed(sim);
  r.steps = sim.stats().solver.steps;
  r.recording = sim.recording();
  return r;
}

/// The twin's settings with another solver and tolerance (the model's atol is kept).
graph::SimulationSettingsValues TwinSettings(const std::string& solver, double rtol) {
  graph::SimulationSettingsValues s = Twin().settings();
  s.solver = solver;
  s.rtol = rtol;
  return s;
}

/// The largest |value| of the columns `prefix[j]`, j < 6, over the rows of `rec`.
double MaxAbs(const graph::Recording& rec, const std::string& prefix) {
  double worst = 0.0;
  for (int j = 0; j < kJoints; ++j) {
    const int col = rec.FindColumn(Element(prefix, j));
    if (col < 0) std::abort();
    for (int r = 0; r < rec.num_rows(); ++r) worst = std::max(worst, std::abs(rec.value(r, col)));
  }
  return worst;
}

/// The reference run of the twin: ode45 at rtol 1e-10, atol 1e-12.
const graph::Recording& Reference() {
  static const graph::Recording ref = [] {
    graph::SimulationSettingsValues s = TwinSettings("ode45", 1e-10);
    s.atol = 1e-12;
    return Run(Twin(), s).recording;
  }();
  return ref;
}

/// max over the rows and joints of |q - q_ref| (rad); both runs write a row every 0.01 s.
double ErrorToReference(const graph::Recording& rec) {
  const graph::Recording& ref = Reference();
  if (rec.num_rows() != ref.num_rows()) std::abort();
  double worst = 0.0;
  for (int j = 0; j < kJoints; ++j) {
    const std::string name = Element("arm.q", j);
    const int col = rec.FindColumn(name), col_ref = ref.FindColumn(name);
    for (int r = 0; r < rec.num_rows(); ++r) {
      worst = std::max(worst, std::abs(rec.value(r, col) - ref.value(r, col_ref)));
    }
  }
  return worst;
}

void BM_E4TwinDefault(benchmark::State& state) {
  const graph::SimulationSettingsValues s = Twin().settings();
  double best = std::numeric_limits<double>::infinity();
  RunResult last;
  for (auto _ : state) {
    last = Run(Twin(), s);
    best = std::min(best, last.wall);
  }
  state.counters["best_ms"] = 1e3 * best;
  state.counters["real_time_factor"] = (s.t_end - s.t_start) / best;
  state.counters["steps"] = static_cast<double>(last.steps);
  state.counters["error_rad"] = ErrorToReference(last.recording);
}

void BM_E4TwinOde45(benchmark::State& state) {
  const graph::SimulationSettingsValues defaults = Twin().settings();
  const RunResult default_run = Run(Twin(), defaults);
  const double default_error = ErrorToReference(default_run.recording);

  // The loosest ode45 tolerance at least as accurate as the default solver.
  double rtol = 1e-2, error = std::numeric_limits<double>::infinity();
  double looser_error = std::numeric_limits<double>::quiet_NaN();  // at rtol * sqrt(10)
  for (; rtol >= 1e-10; rtol /= std::sqrt(10.0)) {
    error = ErrorToReference(Run(Twin(), TwinSettings("ode45", rtol)).recording);
    if (error <= default_error) break;
    looser_error = error;
  }
  const graph::SimulationSettingsValues ode45 = TwinSettings("ode45", rtol);

  double ode45_best = std::numeric_limits<double>::infinity();
  double default_best = std::numeric_limits<double>::infinity();
  long ode45_steps = 0;
  for (auto _ : state) {
    const RunResult a = Run(Twin(), ode45);
    const RunResult b = Run(Twin(), defaults);
    ode45_best = std::min(ode45_best, a.wall);
    default_best = std::min(default_best, b.wall);
    ode45_steps = a.steps;
  }
  state.counters["ode45_rtol"] = rtol;
  state.counters["error_rad"] = error;
  state.counters["default_error_rad"] = default_error;
  state.counters["looser_rtol_error_rad"] = looser_error;
  state.counters["ode45_ms"] = 1e3 * ode45_best;
  state.counters["default_ms"] = 1e3 * default_best;
  state.counters["ode45_steps"] = static_cast<double>(ode45_steps);
  state.counters["default_steps"] = static_cast<double>(default_run.steps);
  state.counters["ratio"] = ode45_best / default_best;
}

void BM_E4Derivatives(benchmark::State& state) {
  graph::SimulationSettingsValues s = Twin().settings();
  s.t_end = 1.0;  // mid-motion: every joint moving (joint 6 creeping), friction and loops active
  graph::Simulator sim(Twin(), s);
  if (!sim.Run().ok) std::abort();
  // The solver's right-hand side at the state the run reached.
  const Eigen::VectorXd x = sim.state().x;
  Eigen::VectorXd xdot(x.size());

  // The bare arm at the same q, qd, with the motor torques the twin applies there.
  const mb::KinematicTree tree = mb::testing::ReferenceArm();
  mb::KinematicTreeData data(tree);
  const graph::Recording& rec = sim.recording();
  const int last = rec.num_rows() - 1;
  Eigen::VectorXd q(kJoints), v(kJoints), tau(kJoints);
  for (int j = 0; j < kJoints; ++j) {
    q[j] = rec.value(last, rec.FindColumn(Element("arm.q", j)));
    v[j] = rec.value(last, rec.FindColumn(Element("arm.qd", j)));
    tau[j] = rec.value(last, rec.FindColumn(Element("tau_joint", j)));
  }

  constexpr int kInner = 200;
  double twin_ns = 0.0, aba_ns = 0.0, calls = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kInner; ++k) {
      sim.EvaluateDerivatives(sim.time(), x, &xdot);
      benchmark::DoNotOptimize(xdot[0]);
    }
    const auto t1 = Clock::now();
    for (int k = 0; k < kInner; ++k) benchmark::DoNotOptimize(mb::Aba(tree, &data, q, v, tau)[0]);
    const auto t2 = Clock::now();
    twin_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
    aba_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
    calls += kInner;
  }
  state.counters["ns_per_eval"] = twin_ns / calls;
  state.counters["ns_aba"] = aba_ns / calls;
  state.counters["ratio"] = twin_ns / aba_ns;
  state.counters["nx"] = Twin().num_continuous_states();
}

void BM_E2InverseDynamics(benchmark::State& state) {
  const graph::System& e2 = CompiledModel("models/robot6dof/e2_inverse_dynamics.xml");
  const graph::SimulationSettingsValues s = e2.settings();
  double best = std::numeric_limits<double>::infinity();
  RunResult last;
  for (auto _ : state) {
    last = Run(e2, s);
    best = std::min(best, last.wall);
  }
  state.counters["best_ms"] = 1e3 * best;
  state.counters["real_time_factor"] = (s.t_end - s.t_start) / best;
  state.counters["steps"] = static_cast<double>(last.steps);
  state.counters["max_tracking_error_rad"] = MaxAbs(last.recording, "error");
}

BENCHMARK(BM_E4TwinDefault)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_E4TwinOde45)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_E4Derivatives)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_E2InverseDynamics)->Unit(benchmark::kMillisecond)->Iterations(10);

}  // namespace

BENCHMARK_MAIN();
