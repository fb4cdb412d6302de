#pragma once

#include <string>

namespace twinblocks::graph {

/// Where something was written: a model file and a 1-based line (0 when unknown, e.g. for
/// elements made by the editing API).
struct SourceLocation {
  std::string file;
  int line = 0;

  bool known() const { return !file.empty(); }
  /// "FILE:LINE" ("FILE" when the line is unknown, "" when nothing is known).
  std::string ToString() const;
};

}  // namespace twinblocks::graph
