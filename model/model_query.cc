// Model queries: finding blocks by type, path pattern and parameter, and parameters evaluated
// as numbers.
#include <functional>

#include "blocks/block_registry.h"
#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "model/detail/model_support.h"
#include "model/model.h"

namespace twinblocks::graph {

using internal::EditError;
using internal::JoinPath;

namespace {

// `*` any run, `?` one character, within one path segment.
bool MatchSegment(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Segments of the pattern against segments of the path; `**` spans any number of segments.
bool MatchPath(const std::vector<std::string_view>& pattern, size_t pi,
               const std::vector<std::string_view>& path, size_t qi) {
  if (pi == pattern.size()) return qi == path.size();
  if (pattern[pi] == "**") {
    for (size_t skip = qi; skip <= path.size(); ++skip) {
      if (MatchPath(pattern, pi + 1, path, skip)) return true;
    }
    return false;
  }
  if (qi == path.size() || !MatchSegment(pattern[pi], path[qi])) return false;
  return MatchPath(pattern, pi + 1, path, qi + 1);
}

}  // namespace

std::vector<std::string> Model::FindBlocks(const BlockQuery& query) const {
  const std::vector<std::string_view> pattern = internal::SplitPath(query.path);
  for (std::string_view segment : pattern) {
    if (segment.empty()) {
      throw EditError("block path pattern '" + query.path +
                      "' has an empty segment; write segments separated by one '/'");
    }
  }
  std::vector<std::string> found;
  std::function<void(const Diagram&, const std::string&)> visit = [&](const Diagram& d,
                                                                      const std::string& prefix) {
    for (const BlockNode& b : d.blocks) {
      const std::string path = JoinPath(prefix, b.name);
      bool match = query.type.empty() || b.type == query.type;
      if (match && !pattern.empty()) {
        match = MatchPath(pattern, 0, internal::SplitPath(path), 0);
      }
      if (match && !query.param.empty()) {
        const std::optional<std::string> v = b.GetParam(query.param);
        match = v.has_value() && (query.value.empty() || *v == query.value);
      }
      if (match) found.push_back(path);
      if (b.is_subsystem()) visit(*b.body, path);
    }
  };
  visit(root, "");
  return found;
}

namespace {

// The parameter's value as compile evaluates it at the top level: its text, or the catalog's
// default, with the model's variables.
Eigen::MatrixXd EvaluateParamOf(const Model& m, std::string_view path, std::string_view param) {
  const BlockNode& b = internal::GetBlock(m, path);
  const std::string block_path(path);
  const std::string name(param);
  if (b.is_subsystem()) {
    throw EditError(block_path, "", "a subsystem has no parameters (reading '" + name + "')",
                    b.where);
  }
  const internal::TypeRef type = internal::LookUpType(m, b);
  std::optional<std::string> text = b.GetParam(param);
  const blocks::ParamSpec* spec = type.catalog ? type.catalog->FindParam(param) : nullptr;
  if (type.catalog != nullptr && spec == nullptr) {
    std::vector<std::string> valid;
    for (const blocks::ParamSpec& s : type.catalog->params) valid.push_back(s.name);
    throw EditError(block_path, b.type,
                    "unknown parameter '" + name + "'" + SuggestionFor(name, valid) +
                        "; valid parameters: " + internal::JoinNames(valid),
                    b.where);
  }
  if (spec != nullptr &&
      (spec->kind == blocks::ParamKind::kWord || spec->kind == blocks::ParamKind::kString)) {
    throw EditError(block_path, b.type,
                    "parameter '" + name + "' is text, not a number (read it with GetParam)",
                    b.where);
  }
  if (!text && spec != nullptr && !spec->default_text.empty()) text = spec->default_text;
  if (!text) throw EditError(block_path, b.type, "parameter '" + name + "' is not set", b.where);
  if (spec != nullptr && IsAutoValue(*spec, *text)) {
    throw EditError(block_path, b.type,
                    "parameter '" + name + "' is auto, not a number (read it with GetParam)",
                    b.where);
  }
  const Scope variables = internal::EvaluateVariables(m);
  try {
    return EvaluateNumeric(*text, variables);
  } catch (const blocks::ExpressionError& e) {
    throw EditError(block_path, b.type, "parameter '" + name + "' = '" + *text + "': " + e.what(),
                    b.where);
  }
}

}  // namespace

double Model::GetParamValue(std::string_view path, std::string_view param) const {
  const Eigen::MatrixXd m = EvaluateParamOf(*this, path, param);
  if (m.size() != 1) {
    const BlockNode& b = internal::GetBlock(*this, path);
    throw EditError(std::string(path), b.type,
                    "parameter '" + std::string(param) + "' is " + std::to_string(m.rows()) + "x" +
                        std::to_string(m.cols()) + ", not a scalar (read it with GetParamVector)",
                    b.where);
  }
  return m(0, 0);
}

std::vector<double> Model::GetParamVector(std::string_view path, std::string_view param) const {
  const Eigen::MatrixXd m = EvaluateParamOf(*this, path, param);
  if (m.rows() != 1 && m.cols() != 1) {
    const BlockNode& b = internal::GetBlock(*this, path);
    throw EditError(std::string(path), b.type,
                    "parameter '" + std::string(param) + "' is a " + std::to_string(m.rows()) +
                        "x" + std::to_string(m.cols()) + " matrix, not a vector",
                    b.where);
  }
  return std::vector<double>(m.data(), m.data() + m.size());
}

}  // namespace twinblocks::graph
