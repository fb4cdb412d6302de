#pragma once

#include <Eigen/Core>
#include <map>
#include <string>
#include <string_view>

#include "blocks/param.h"

namespace twinblocks::graph {

/// Named values visible to an expression: model variables, define parameters. Values are
/// matrices (scalars 1x1, vectors n x 1). A scope may have a parent it falls back to.
class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  void Set(const std::string& name, Eigen::MatrixXd value) { values_[name] = std::move(value); }
  void Erase(const std::string& name) { values_.erase(name); }
  /// The value of `name` here (not in a parent), or null.
  const Eigen::MatrixXd* FindHere(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  /// The value of `name` here or in a parent, or null.
  const Eigen::MatrixXd* Find(const std::string& name) const;
  /// Every scalar visible, inner names shadowing outer ones.
  std::map<std::string, double> Scalars() const;

 private:
  const Scope* parent_;
  std::map<std::string, Eigen::MatrixXd> values_;
};

/// Evaluates numeric parameter text: a scalar expression (`2*pi*f`, `deg(30)`), a vector
/// `[e1, e2]` or the shorthand `0 0 -9.81`, a matrix `[[a, b], [c, d]]`. A text that is just
/// the name of a non-scalar variable gives that variable's value.
/// @throws blocks::ExpressionError saying what does not parse (no location: the caller adds it).
Eigen::MatrixXd EvaluateNumeric(const std::string& text, const Scope& scope);

/// Evaluates a parameter's text the way its spec says (numbers for kScalar/kVector/kMatrix,
/// checked words for kWord, text for kString). Shape checks: kScalar must give 1x1, kVector
/// a row or column.
/// A parameter that allows `auto` (ParamSpec::allows_auto) evaluates that word to the text
/// "auto".
/// @throws blocks::ExpressionError with the reason (and the valid words for a kWord).
blocks::ParamValue EvaluateParameter(const std::string& text, const blocks::ParamSpec& spec,
                                     const Scope& scope);

/// True when `text` is the word `auto` of a parameter that allows it.
bool IsAutoValue(const blocks::ParamSpec& spec, std::string_view text);

}  // namespace twinblocks::graph
