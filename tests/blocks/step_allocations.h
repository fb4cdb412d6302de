#pragma once

#include "tests/blocks/block_test_helpers.h"
#include "tests/physics/malloc_count.h"

namespace twinblocks::blocks::testing {

/// Heap allocations while `h`, initialized, runs `steps` major steps `dt` apart from t = 0,
/// each followed by outputs inside the step (at dt / 2 past it), as a solver would call them.
/// Before each major step `set_inputs(t)` sets the inputs from storage sized beforehand.
/// Returns -1 where allocations are not counted (tests::kMallocCounted).
template <class SetInputs>
long AllocationsWhileStepping(BlockHarness& h, int steps, double dt, SetInputs&& set_inputs) {
  if (!twinblocks::testing::kMallocCounted) return -1;
  twinblocks::testing::StartCountingAllocations();
  for (int k = 0; k < steps; ++k) {
    const double t = k * dt;
    set_inputs(t);
    h.MajorStep(t);
    h.MinorOutputs(t + 0.5 * dt);
  }
  return twinblocks::testing::StopCountingAllocations();
}

}  // namespace twinblocks::blocks::testing
