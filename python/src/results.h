#pragma once

// The results of one run as Python sees them: the recording copied out of the Simulator
// (so that they outlive it and a later run), how the run ended, and which columns each logged
// signal occupies, found by its logged name or by its source "path.port".

#include <optional>
#include <string>
#include <vector>

#include "runtime/results.h"
#include "runtime/simulator.h"
#include "runtime/system.h"

namespace twinblocks::python {

class Results {
 public:
  /// Where a signal's elements sit among the recording's columns (not counting time).
  struct Slice {
    int first = 0;
    int width = 1;
  };

  Results(const graph::System& system, const graph::Recording& recording,
          const graph::SimulationOutcome& outcome, std::string stats);

  /// A logged name ("F1P1"), a source ("hand/finger1/phalanx1.contact") or a column name of
  /// one element ("object_position[2]"); nullopt when none matches.
  std::optional<Slice> Find(const std::string& key) const;

  /// The names `Find` accepts first: every logged signal's name.
  std::vector<std::string> names() const;

  const graph::Recording& recording() const { return recording_; }
  const graph::SimulationOutcome& outcome() const { return outcome_; }
  const std::string& stats() const { return stats_; }

 private:
  std::vector<graph::LoggedSignal> signals_;
  std::vector<int> first_column_;  ///< per signal
  graph::Recording recording_;
  graph::SimulationOutcome outcome_;
  std::string stats_;
};

}  // namespace twinblocks::python
