#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinblocks::blocks {

/// An expression that does not parse or names something unknown. The message says what and
/// where in the text; the caller adds file, line and block.
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A scalar expression in the model-file language (docs/model-format.md): + - * / ^,
/// parentheses, sin cos tan asin acos atan atan2 sqrt exp log abs min max deg (and muParser's
/// other built-ins), constants pi, e, inf. Variables are bound by address, so evaluation
/// allocates nothing and looks nothing up. Not thread-safe: one object per thread.
class MathExpression {
 public:
  MathExpression();
  ~MathExpression();
  MathExpression(MathExpression&&) noexcept;
  MathExpression& operator=(MathExpression&&) noexcept;

  /// Binds `name` to the double at `storage`, which must outlive this object.
  /// @throws ExpressionError when the name is not a valid identifier or is taken.
  void DefineVariable(const std::string& name, double* storage);
  /// @throws ExpressionError when the name is taken.
  void DefineConstant(const std::string& name, double value);

  /// Parses `text`. @throws ExpressionError with muParser's message and the position.
  void SetExpression(const std::string& text);
  const std::string& expression() const;

  /// Evaluates the expression. @throws ExpressionError (only for errors found late).
  double Evaluate() const;

  /// Names used by the expression that are neither constants nor functions.
  std::vector<std::string> UsedVariables() const;

  /// True for the built-in names a model variable may not take (pi, e, sin, ...).
  static bool IsReservedName(const std::string& name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace twinblocks::blocks
