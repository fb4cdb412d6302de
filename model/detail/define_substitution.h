#pragma once

// How the parameters of a define instance reach the blocks of its body. Compile (flatten.cc)
// evaluates numeric texts in a scope that holds the instance's parameters, and hands word and
// free-text parameters the instance's text when their whole text names a define parameter.
// ExpandDefine (model_restructure.cc) writes the same meaning into the texts themselves, so
// both use these rules.

#include <map>
#include <string>

#include "blocks/param.h"

namespace twinblocks::graph::internal {

/// True for a free-text parameter that is a formula the block evaluates itself with the
/// variables it sees (Expression's `expr`): define parameters reach it through those variables.
bool IsFormulaParam(blocks::ParamKind kind, const std::string& param_name);

/// The text a word or string parameter written `text` inside a define body means: the
/// instance's text for the define parameter it names as a whole, else itself.
const std::string& DefineWordText(const std::string& text,
                                  const std::map<std::string, std::string>& define_texts);

/// `text` (an expression, a vector or matrix literal, a shorthand vector) with every name of
/// a define parameter replaced by the instance's text for it, so that it evaluates without the
/// define's scope to what it evaluated to with it. A text that is just the name takes the
/// instance's text as it is; inside an expression, a text that is not a plain number or name
/// is put in parentheses. Function names (a name followed by '(') are left alone.
std::string SubstituteDefineParams(const std::string& text,
                                   const std::map<std::string, std::string>& define_texts);

/// The text of a parameter of kind `kind` inside a define body, written for the expanded
/// subsystem: words and strings by DefineWordText, formulas (`expr`, evaluated by the block with
/// the variables it sees) and numbers by SubstituteDefineParams.
std::string ExpandParamText(blocks::ParamKind kind, const std::string& param_name,
                            const std::string& text,
                            const std::map<std::string, std::string>& define_texts);

}  // namespace twinblocks::graph::internal
