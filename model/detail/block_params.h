#pragma once

// A catalog block's parameters evaluated the way compile does it: shared by the compiler
// (flatten.cc) and by retuning a compiled System (system_tuning.cc), so that a retuned block is
// built exactly as a recompiled one would be.

#include <map>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "model/model.h"
#include "model/parameter_evaluator.h"
#include "model/source_location.h"

namespace twinblocks::graph::internal {

/// Evaluates `params` (texts as written) for a block of `type` at `path` in `scope`: word and
/// string texts that name a define parameter take its text (`define_texts`), missing
/// parameters their defaults; the scalar variables in scope and `base_dir` go along for blocks
/// that need them.
/// @throws ModelError at `where` naming the block and parameter: unknown, required and
///   missing, or not evaluating.
blocks::Params EvaluateBlockParams(const blocks::BlockType& type, const std::string& path,
                                   const SourceLocation& where,
                                   const std::vector<Parameter>& params, const Scope& scope,
                                   const std::map<std::string, std::string>& define_texts,
                                   const std::string& base_dir);

}  // namespace twinblocks::graph::internal
