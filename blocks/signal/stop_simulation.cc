#include "blocks/signal/stop_simulation.h"

#include <memory>

namespace twinblocks::blocks {

StopSimulation::StopSimulation(const Params& params) {
  DeclareInput("u");  // read at its major steps: direct feedthrough orders it after its driver
}

void StopSimulation::DoCalcOutputs(Context& c, int stage) const {
  if (!c.major) return;
  const double* u = in(c, 0);
  const int n = in_width(0);
  for (int i = 0; i < n; ++i) {
    // NaN is non-zero, as in Simulink: a signal gone bad stops the run too.
    if (u[i] != 0.0) {
      RequestStop(c, /*failed=*/false);
      return;
    }
  }
}

BlockType StopSimulationType() {
  BlockType t;
  t.name = "StopSimulation";
  t.category = "Sinks and verification";
  t.summary = "Ends the run when its input is non-zero.";
  t.doc =
      "At each major step (each sample hit of its rate, which it inherits from u) the block reads "
      "u; when any element is non-zero, the run completes that step, records its row (also "
      "between output_interval rows) and ends there, successfully: `twinblocks run` exits with "
      "status 0 and prints `stopped: at t = T s by block 'PATH' (StopSimulation)`, and the "
      "outcome (Python: Outcome.stopped, stopped_by) names the block. The time is that of a major "
      "step, not a located crossing: to stop at the instant a condition becomes true, drive u "
      "from a block with a zero crossing there (a CompareToConstant, a RelationalOperator), whose "
      "edge the solver lands on.";
  t.reference = "Simulink Stop Simulation (Sinks)";
  t.inputs = {{"u", "stop when any element is non-zero, any width"}};
  t.create = [](const Params& p) { return std::make_unique<StopSimulation>(p); };
  return t;
}

}  // namespace twinblocks::blocks
