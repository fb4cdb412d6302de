#pragma once
// What the graph tests compare when two ways to the same model must give the same run: every
// recorded value, row by row, so that one EXPECT_EQ checks a whole run bitwise.

#include <gtest/gtest.h>

#include <vector>

#include "runtime/simulator.h"
#include "runtime/system.h"

namespace twinblocks::graph::test_support {

/// Runs `system` with its own settings; returns time and every logged column, row by row.
inline std::vector<double> RecordedValues(const System& system) {
  Simulator sim(system, system.settings());
  sim.Initialize();
  EXPECT_TRUE(sim.Run().ok);
  const Recording& r = sim.recording();
  std::vector<double> out;
  for (int row = 0; row < r.num_rows(); ++row) {
    out.push_back(r.time(row));
    for (int c = 0; c < r.num_columns(); ++c) out.push_back(r.value(row, c));
  }
  return out;
}

}  // namespace twinblocks::graph::test_support
