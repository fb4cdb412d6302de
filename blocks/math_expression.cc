#include "blocks/math_expression.h"

#include <muParser.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace twinblocks::blocks {

namespace {

double Deg(double x) { return x * std::numbers::pi / 180.0; }
double Atan2(double y, double x) { return std::atan2(y, x); }

// Names the language reserves: constants and functions, built-in or ours.
const char* const kReserved[] = {
    "pi",   "e",    "inf",  "deg",  "atan2", "sin",   "cos",   "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log", "log2", "log10",
    "ln",   "exp",  "sqrt", "sign", "rint",  "abs",   "min",   "max", "sum",  "avg"};

}  // namespace

struct MathExpression::Impl {
  mu::Parser parser;
  std::string text;
};

MathExpression::MathExpression() : impl_(std::make_unique<Impl>()) {
  mu::Parser& p = impl_->parser;
  p.DefineConst("pi", std::numbers::pi);
  p.DefineConst("e", std::numbers::e);
  p.DefineConst("inf", std::numeric_limits<double>::infinity());
  p.DefineFun("deg", &Deg);
  p.DefineFun("atan2", &Atan2);
}

MathExpression::~MathExpression() = default;
MathExpression::MathExpression(MathExpression&&) noexcept = default;
MathExpression& MathExpression::operator=(MathExpression&&) noexcept = default;

void MathExpression::DefineVariable(const std::string& name, double* storage) {
  try {
    impl_->parser.DefineVar(name, storage);
  } catch (const mu::Parser::exception_type& ex) {
    throw ExpressionError("cannot define variable '" + name + "': " + ex.GetMsg());
  }
}

void MathExpression::DefineConstant(const std::string& name, double value) {
  try {
    impl_->parser.DefineConst(name, value);
  } catch (const mu::Parser::exception_type& ex) {
    throw ExpressionError("cannot define constant '" + name + "': " + ex.GetMsg());
  }
}

void MathExpression::SetExpression(const std::string& text) {
  impl_->text = text;
  // muParser takes `a=0` as an assignment to the variable a, valued 0: a typo for `==` (or a
  // model's variable overwritten) would pass silently. The model language has none.
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const char before = i > 0 ? text[i - 1] : ' ';
    const char after = i + 1 < text.size() ? text[i + 1] : ' ';
    if (after == '=' || before == '=' || before == '<' || before == '>' || before == '!') continue;
    throw ExpressionError("cannot evaluate '" + text + "': '=' at position " + std::to_string(i) +
                          " assigns; a comparison is written '=='");
  }
  try {
    impl_->parser.SetExpr(text);
    // muParser parses lazily: evaluate once so that syntax errors surface here.
    impl_->parser.Eval();
    // muParser reads `1,5` as two results and gives the last: a decimal comma would become 5.
    if (impl_->parser.GetNumResults() > 1) {
      throw ExpressionError("cannot evaluate '" + text + "': a ',' separates " +
                            std::to_string(impl_->parser.GetNumResults()) +
                            " values; a decimal point is '.', and a vector is written [a, b]");
    }
  } catch (const mu::Parser::exception_type& ex) {
    std::string msg = ex.GetMsg();
    // muParser says "Unexpected token "foo"" for an unknown name; say it plainly.
    if (!ex.GetToken().empty() && msg.find("Unexpected token") != std::string::npos) {
      msg = "unknown name '" + ex.GetToken() + "' at position " + std::to_string(ex.GetPos());
    }
    throw ExpressionError("cannot evaluate '" + text + "': " + msg);
  }
}

const std::string& MathExpression::expression() const { return impl_->text; }

double MathExpression::Evaluate() const {
  try {
    return impl_->parser.Eval();
  } catch (const mu::Parser::exception_type& ex) {
    throw ExpressionError("cannot evaluate '" + impl_->text + "': " + ex.GetMsg());
  }
}

std::vector<std::string> MathExpression::UsedVariables() const {
  std::vector<std::string> names;
  for (const auto& [name, ptr] : impl_->parser.GetUsedVar()) names.push_back(name);
  return names;
}

bool MathExpression::IsReservedName(const std::string& name) {
  for (const char* r : kReserved) {
    if (name == r) return true;
  }
  return false;
}

}  // namespace twinblocks::blocks
