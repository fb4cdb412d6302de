#pragma once

// What the model benchmarks share: a run timed from its first step to its end.

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "runtime/simulator.h"

namespace twinblocks::bench {

/// Runs `sim` to its end and returns the wall time of Simulator::Run, s (construction and
/// compilation left out). A failed run aborts with its error: its figures would mislead.
inline double RunTimed(graph::Simulator& sim) {
  const auto t0 = std::chrono::steady_clock::now();
  const graph::SimulationOutcome outcome = sim.Run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!outcome.ok) {
    std::cerr << "run failed: " << outcome.error << "\n";
    std::abort();
  }
  return wall;
}

}  // namespace twinblocks::bench
