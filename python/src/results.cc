#include "results.h"

#include <utility>

namespace twinblocks::python {

Results::Results(const graph::System& system, const graph::Recording& recording,
                 const graph::SimulationOutcome& outcome, std::string stats)
    : signals_(system.logged_signals()),
      recording_(recording),
      outcome_(outcome),
      stats_(std::move(stats)) {
  // The recording lays the signals out in logged order, each over `width` columns.
  int column = 0;
  for (const graph::LoggedSignal& s : signals_) {
    first_column_.push_back(column);
    column += s.width;
  }
}

std::optional<Results::Slice> Results::Find(const std::string& key) const {
  for (size_t i = 0; i < signals_.size(); ++i) {
    if (signals_[i].name == key) return Slice{first_column_[i], signals_[i].width};
  }
  for (size_t i = 0; i < signals_.size(); ++i) {
    if (signals_[i].source == key) return Slice{first_column_[i], signals_[i].width};
  }
  const int column = recording_.FindColumn(key);
  if (column >= 0) return Slice{column, 1};
  return std::nullopt;
}

std::vector<std::string> Results::names() const {
  std::vector<std::string> out;
  for (const graph::LoggedSignal& s : signals_) out.push_back(s.name);
  return out;
}

}  // namespace twinblocks::python
