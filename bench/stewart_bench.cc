// Closed-loop speed: the Stewart platform of models/mechanisms/stewart.xml (6-UPS, six loops cut at
// the balls, 18 constraint rows, legs motion-driven by StewartIK) over its 5 s, wall time and
// real-time factor with `ida` and with ODE settings.
//
//   build/bin/stewart_bench
//
// BM_Stewart/<solver>_rtol<r>: counters real_time_factor (5 s / wall), steps, and pose_error
// (the largest difference between the measured platform pose and the commanded one over the
// logged rows, m or rad: what the setting costs in accuracy).
//
// Measured (Release, 2 shared cores): ida rtol 1e-10: 0.40 s wall (12.9x real time, 2643
// steps, pose error 2.6e-10); ode45 rtol 1e-10: 0.17 s (29x, 597 steps, 4.0e-12); ode45 rtol
// 1e-6: 0.06 s (84x, 120 steps, 1.4e-8), the best ODE setting; ode23 rtol 1e-4: 0.14 s (37x).
// cvode-bdf, which projects each step itself (a later run, where ode45 at 1e-6 took 0.040 s):
// rtol 1e-6 0.069 s (73x, 391 steps, pose error 1.9e-9), rtol 1e-10 0.26 s (19x, 1758 steps,
// 1.4e-13). cvode-adams at rtol 1e-6, which projects at major steps only where the drift
// exceeds ten of its step errors: 2.1 s (2.4x, 6338 steps); when every drift past 1e-10 was
// projected, each projection restarting it at order 1, 114 s and 104417 steps.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace {

using namespace twinblocks;
using Clock = std::chrono::steady_clock;

const graph::System& Stewart() {
  static const std::unique_ptr<graph::System> system =
      std::make_unique<graph::System>(graph::Compile(xml::ReadModelFile(
          std::string(TWINBLOCKS_SOURCE_DIR) + "/models/mechanisms/stewart.xml")));
  return *system;
}

/// The commanded pose of stewart.xml: z and roll (the rest is zero).
double Shape(double a) { return (1.0 - std::cos(a)) * (1.0 - std::cos(a)) / 4.0; }

void BM_Stewart(benchmark::State& state, const std::string& solver, double rtol) {
  graph::SimulationSettingsValues settings = Stewart().settings();
  settings.solver = solver;
  settings.rtol = rtol;
  settings.atol = 1e-2 * rtol;
  double wall = 0.0, pose_error = 0.0;
  long steps = 0;
  for (auto _ : state) {
    graph::Simulator sim(Stewart(), settings);
    const auto t0 = Clock::now();
    const graph::SimulationOutcome outcome = sim.Run();
    wall = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!outcome.ok) {
      std::cerr << "run failed: " << outcome.error << "\n";
      std::abort();
    }
    steps = sim.stats().solver.steps;
    state.PauseTiming();
    const graph::Recording& rec = sim.recording();
    const int z = rec.FindColumn("sensor.position[2]"),
              roll = rec.FindColumn("sensor.euler_zyx[2]");
    if (z < 0 || roll < 0) std::abort();
    pose_error = 0.0;
    for (int r = 0; r < rec.num_rows(); ++r) {
      const double t = rec.time(r);
      pose_error = std::max({pose_error, std::abs(rec.value(r, z) - 0.6 - 0.1 * Shape(M_PI * t)),
                             std::abs(rec.value(r, roll) - 0.15 * Shape(1.4 * M_PI * t))});
    }
    state.ResumeTiming();
  }
  state.counters["real_time_factor"] = 5.0 / wall;
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["pose_error"] = pose_error;
}

BENCHMARK_CAPTURE(BM_Stewart, ida_rtol_1e_10, "ida", 1e-10)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Stewart, ode45_rtol_1e_10, "ode45", 1e-10)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Stewart, ode45_rtol_1e_6, "ode45", 1e-6)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Stewart, ode23_rtol_1e_4, "ode23", 1e-4)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
// CVODE's BDF projects every step onto the loops itself (docs/loops.md): no restarts.
BENCHMARK_CAPTURE(BM_Stewart, cvode_bdf_rtol_1e_6, "cvode-bdf", 1e-6)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Stewart, cvode_bdf_rtol_1e_10, "cvode-bdf", 1e-10)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
// CVODE's Adams method cannot project inside its steps: the major steps project, each time a
// restart at order 1, but only drift beyond ten of its step errors (docs/loops.md).
BENCHMARK_CAPTURE(BM_Stewart, cvode_adams_rtol_1e_6, "cvode-adams", 1e-6)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
