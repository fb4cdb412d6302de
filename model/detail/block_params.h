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
/// parameters their defaults; `base_dir` goes along, and the scalar variables in scope for a
/// block with a formula of its own (ReadsVariables).
/// @throws ModelError at `where` naming the block and parameter: unknown, required and
///   missing, or not evaluating.
blocks::Params EvaluateBlockParams(const blocks::BlockType& type, const std::string& path,
                                   const SourceLocation& where,
                                   const std::vector<Parameter>& params, const Scope& scope,
                                   const std::map<std::string, std::string>& define_texts,
                                   const std::string& base_dir);

/// As EvaluateBlockParams, but only the parameters marked in `reevaluate` (one flag per entry
/// of `params`) are evaluated; the others keep their values in `before`, the same block's
/// parameters evaluated from the same texts. A retune reaches few of a block's parameters, and
/// those it does not reach would evaluate to what they were.
/// @throws ModelError as EvaluateBlockParams.
blocks::Params ReevaluateBlockParams(const blocks::BlockType& type, const std::string& path,
                                     const SourceLocation& where,
                                     const std::vector<Parameter>& params, const Scope& scope,
                                     const std::map<std::string, std::string>& define_texts,
                                     const blocks::Params& before,
                                     const std::vector<unsigned char>& reevaluate);

/// True for a block type with a formula of its own (Expression's `expr`), which reads the
/// variables in scope when it is built.
bool ReadsVariables(const blocks::BlockType& type);

}  // namespace twinblocks::graph::internal
