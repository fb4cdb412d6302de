#include "model/detail/block_params.h"

#include <stdexcept>

#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "model/detail/define_substitution.h"
#include "model/model_error.h"

namespace twinblocks::graph::internal {

namespace {

// Evaluates parameter `p` of a block of `type` into `out`.
void EvaluateInto(const blocks::BlockType& type, const std::string& path,
                  const SourceLocation& where, const Parameter& p, const Scope& scope,
                  const std::map<std::string, std::string>& define_texts, blocks::Params* out) {
  const blocks::ParamSpec* spec = type.FindParam(p.name);
  if (spec == nullptr) {
    std::vector<std::string> valid;
    std::string list;
    for (const blocks::ParamSpec& s : type.params) {
      valid.push_back(s.name);
      list += (list.empty() ? "" : ", ") + s.name;
    }
    throw ModelError(where, path, type.name,
                     "unknown parameter '" + p.name + "'" + SuggestionFor(p.name, valid) +
                         "; valid parameters: " + (valid.empty() ? "none" : list));
  }
  const bool is_text =
      spec->kind == blocks::ParamKind::kWord || spec->kind == blocks::ParamKind::kString;
  const std::string& text = is_text ? DefineWordText(p.value, define_texts) : p.value;
  try {
    out->Set(p.name, EvaluateParameter(text, *spec, scope));
  } catch (const blocks::ExpressionError& e) {
    std::string msg = "parameter '" + p.name + "': " + e.what();
    // Name the define parameter behind an unknown name: its value was not a number.
    for (const auto& [name, value] : define_texts) {
      if (scope.Find(name) == nullptr && msg.find("'" + name + "'") != std::string::npos) {
        msg += " (the define parameter '" + name + "' is '" + value + "', not a number)";
        break;
      }
    }
    throw ModelError(where, path, type.name, msg);
  }
}

// The scalar variables in scope, for a block with a formula of its own (Expression); none for
// the others, which never read them.
std::vector<std::pair<std::string, double>> VariablesFor(const blocks::BlockType& type,
                                                         const Scope& scope) {
  std::vector<std::pair<std::string, double>> vars;
  if (!ReadsVariables(type)) return vars;
  for (const auto& [name, value] : scope.Scalars()) vars.emplace_back(name, value);
  return vars;
}

}  // namespace

bool ReadsVariables(const blocks::BlockType& type) {
  for (const blocks::ParamSpec& spec : type.params) {
    if (IsFormulaParam(spec.kind, spec.name)) return true;
  }
  return false;
}

blocks::Params EvaluateBlockParams(const blocks::BlockType& type, const std::string& path,
                                   const SourceLocation& where,
                                   const std::vector<Parameter>& params, const Scope& scope,
                                   const std::map<std::string, std::string>& define_texts,
                                   const std::string& base_dir) {
  blocks::Params out;
  for (const Parameter& p : params) {
    EvaluateInto(type, path, where, p, scope, define_texts, &out);
  }
  for (const blocks::ParamSpec& spec : type.params) {
    bool given = false;
    for (const Parameter& p : params) given = given || p.name == spec.name;
    if (given) continue;
    if (spec.required) {
      throw ModelError(where, path, type.name,
                       "parameter '" + spec.name + "' is required (" + spec.doc + ")");
    }
    if (spec.default_text.empty()) continue;
    try {
      out.Set(spec.name, EvaluateParameter(spec.default_text, spec, Scope()));
    } catch (const blocks::ExpressionError& e) {
      throw std::logic_error("default of " + type.name + "." + spec.name +
                             " does not evaluate: " + e.what());
    }
  }
  out.set_variables(VariablesFor(type, scope));
  out.set_base_dir(base_dir);
  return out;
}

blocks::Params ReevaluateBlockParams(const blocks::BlockType& type, const std::string& path,
                                     const SourceLocation& where,
                                     const std::vector<Parameter>& params, const Scope& scope,
                                     const std::map<std::string, std::string>& define_texts,
                                     const blocks::Params& before,
                                     const std::vector<unsigned char>& reevaluate) {
  blocks::Params out = before;
  for (size_t i = 0; i < params.size(); ++i) {
    if (reevaluate[i]) EvaluateInto(type, path, where, params[i], scope, define_texts, &out);
  }
  out.set_variables(VariablesFor(type, scope));
  return out;
}

}  // namespace twinblocks::graph::internal
