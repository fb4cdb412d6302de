#pragma once

#include <string>
#include <vector>

#include "model/model.h"
#include "runtime/system.h"

namespace twinblocks::graph {

/// Extra logs and overrides a run adds to a model without editing it.
struct CompileOptions {
  /// Additional signals to log, "path.port" (the command line's --log).
  std::vector<std::string> extra_logs;
};

/// Compiles a model into an immutable System: flattens subsystems and defines, resolves
/// Goto/From, checks ports, kinds and widths, evaluates parameters, resolves sample times,
/// orders blocks by their direct-feedthrough dependencies and lays out the per-run arrays.
/// @throws ModelError for every problem in the model, with file:line and block path; an
///   algebraic loop names the blocks on the cycle.
System Compile(const Model& model, const CompileOptions& options = {});

}  // namespace twinblocks::graph
