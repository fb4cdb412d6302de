// Simulator: how a run reports itself (SimulationStats::Summary, the stiffness hint) and the
// failures its guards raise: time no longer advancing, zero crossings chattering.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "common/suggest.h"
#include "runtime/simulator.h"
#include "solvers/solver_table.h"

namespace twinblocks::graph {

std::string SimulationStats::Summary(double simulated_seconds) const {
  char buf[320];
  const double rtf = wall_seconds > 0.0 ? simulated_seconds / wall_seconds
                                        : std::numeric_limits<double>::infinity();
  std::snprintf(buf, sizeof buf,
                "steps %ld (rejected %ld), f-evals %ld, zero crossings %ld, major steps %ld, "
                "wall %.4g s, real-time factor %.4g",
                solver.steps, solver.rejected_steps, solver.rhs_evals, solver.zero_crossings,
                major_steps, wall_seconds, rtf);
  std::string line = buf;
  if (resets.total() > 0) {
    // The causes that occurred, in the order of the docs.
    std::string causes;
    auto cause = [&causes](const char* name, long n) {
      if (n == 0) return;
      char item[64];
      std::snprintf(item, sizeof item, "%s%s %ld", causes.empty() ? "" : ", ", name, n);
      causes += item;
    };
    cause("sample hits", resets.sample_hits);
    cause("zero crossings", resets.zero_crossings);
    cause("state resets", resets.state_resets);
    cause("breakpoints", resets.breakpoints);
    cause("inputs", resets.inputs);
    std::snprintf(buf, sizeof buf, ", solver resets %ld (%s)", resets.total(), causes.c_str());
    line.insert(line.find(", wall "), buf);
  }
  if (projections > 0) {
    std::snprintf(buf, sizeof buf, ", projections %ld", projections);
    line.insert(line.find(", wall "), buf);
  }
  if (solver.jacobian_evals > 0) {
    // Where they are (implicit solvers): after f, the cost a run's settings trade against.
    std::snprintf(buf, sizeof buf, ", Jacobians %ld", solver.jacobian_evals);
    line.insert(line.find(", zero crossings"), buf);
  }
  if (!std::isnan(solver.stiff_since)) line += "; " + StiffnessHint(solver.stiff_since);
  return line;
}

std::string StiffnessHint(double stiff_since) {
  return "stiff from t = " + FormatNumber(stiff_since) +
         " s (steps bounded by stability, not accuracy: try " +
         solvers::StiffSolversBut(solvers::kDefaultSolver) + ")";
}

void Simulator::CountConsecutiveCrossing() {
  const double t = state_.t;
  // A switch that reverses the input it switches on (x' = -sign(x) at x = 0) or a bounce past
  // its Zeno time crosses again a few ulps later, forever, and each crossing moves time on
  // by just enough to pass the crawl guard: Simulink's consecutive zero crossings stop it.
  const double window = settings_.zc_time_tolerance * std::max(1.0, std::abs(t));
  consecutive_crossings_ = t - last_crossing_t_ < window ? consecutive_crossings_ + 1 : 1;
  last_crossing_t_ = t;
  if (consecutive_crossings_ >= settings_.max_consecutive_zc) ThrowChattering(window);
}

void Simulator::ThrowChattering(double window) const {
  // Where: the blocks whose functions the last step crossed.
  std::string where;
  for (const blocks::Block* b : system_.zero_crossing_blocks()) {
    const auto first = zc_crossed_.begin() + b->zc_offset();
    if (std::none_of(first, first + b->num_zero_crossings(), [](unsigned char f) { return f; })) {
      continue;
    }
    where += where.empty() ? " at " : ", ";
    where +=
        "block '" + system_.block_path(b->index()) + "' (" + system_.block_type(b->index()) + ")";
  }
  char within[32];
  std::snprintf(within, sizeof within, "%.3g", window);
  throw solvers::SolverError(
      std::to_string(consecutive_crossings_) + " zero crossings in a row" + where +
          ", each within " + within +
          " s of the one before: the model switches faster than time can resolve (a switch "
          "that reverses the input it switches on, a bounce at its Zeno time). Give the "
          "switch a dead band or a delay, let the bounce come to rest (a "
          "SecondOrderIntegrator's limit), turn zero_crossings off, or raise the "
          "simulation's max_consecutive_zc (" +
          std::to_string(settings_.max_consecutive_zc) + ") or zc_time_tolerance",
      state_.t);
}

void Simulator::ThrowCrawling() const {
  char resolution[32];
  std::snprintf(resolution, sizeof resolution, "%.3g", time_resolution_);
  throw solvers::SolverError(
      "time no longer advances: the last " + std::to_string(kCrawlingStepsLimit) +
          " steps were each shorter than " + resolution +
          " s (the time resolution of this run). A stiff model does this under a solver not "
          "made for it (try " +
          solvers::StiffSolversBut(settings_.solver) +
          "), as does an event repeating at one instant (a chattering switch, a bounce at its "
          "Zeno time)",
      state_.t);
}

}  // namespace twinblocks::graph
