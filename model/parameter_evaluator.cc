#include "model/parameter_evaluator.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "blocks/math_expression.h"
#include "common/input_limits.h"
#include "model/model_error.h"

namespace twinblocks::graph {

using blocks::ExpressionError;
using blocks::MathExpression;

const Eigen::MatrixXd* Scope::Find(const std::string& name) const {
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    auto it = s->values_.find(name);
    if (it != s->values_.end()) return &it->second;
  }
  return nullptr;
}

std::map<std::string, double> Scope::Scalars() const {
  std::map<std::string, double> out;
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    for (const auto& [name, unused] : s->values_) {
      // Find() resolves shadowing: an inner non-scalar hides an outer scalar of that name.
      const Eigen::MatrixXd* visible = Find(name);
      if (visible->size() == 1) out.emplace(name, (*visible)(0, 0));
    }
  }
  return out;
}

namespace {

// std::isspace of the "C" locale, inline: the passes over a vector literal of a million
// numbers call it once per character, and the library call was a seventh of their time.
constexpr bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view Trim(std::string_view s) {
  size_t b = 0;
  while (b < s.size() && IsSpace(s[b])) ++b;
  size_t e = s.size();
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool IsIdentifierText(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdentChar(c)) return false;
  }
  return true;
}

// The names an expression text mentions, skipping the exponents of numbers ("1e5" names
// nothing), so that only those need binding.
std::vector<std::string> NamesIn(std::string_view s) {
  std::vector<std::string> names;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (IsDigit(c) || (c == '.' && i + 1 < s.size() && IsDigit(s[i + 1]))) {
      while (i < s.size() && (IsDigit(s[i]) || s[i] == '.')) ++i;
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && IsDigit(s[j])) {
          i = j;
          while (i < s.size() && IsDigit(s[i])) ++i;
        }
      }
    } else if (IsIdentStart(c)) {
      size_t b = i;
      while (i < s.size() && IsIdentChar(s[i])) ++i;
      names.emplace_back(s.substr(b, i - b));
    } else {
      ++i;
    }
  }
  return names;
}

// A plain numeric literal, optionally signed: what the whitespace shorthand `0 0 -9.81` is
// made of.
bool IsPlainNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

std::vector<std::string_view> SplitWhitespace(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    size_t b = i;
    while (i < s.size() && !IsSpace(s[i])) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::string Describe(const Eigen::MatrixXd& m) {
  if (m.size() == 0) return "an empty value";
  if (m.size() == 1) return "a scalar";
  if (m.rows() == 1 || m.cols() == 1) return "a vector of " + std::to_string(m.size());
  return "a " + std::to_string(m.rows()) + "x" + std::to_string(m.cols()) + " matrix";
}

// MathExpression prefixes its messages with "cannot evaluate 'TEXT': "; inside a vector the
// caller names the element instead, so keep only the reason.
std::string ReasonOf(const ExpressionError& ex, std::string_view text) {
  std::string msg = ex.what();
  std::string prefix = "cannot evaluate '" + std::string(text) + "': ";
  if (msg.rfind(prefix, 0) == 0) return msg.substr(prefix.size());
  return msg;
}

// A plain number's value. Past the largest double is an error, as muParser has it (a
// parameter of 1e400 is a typing error more likely than a wish for infinity: that is `inf`).
double ReadNumber(std::string_view number) {
  const double value = std::strtod(std::string(number).c_str(), nullptr);
  if (std::isinf(value)) {
    throw ExpressionError("cannot evaluate '" + std::string(number) +
                          "': the number is beyond the largest double (1.8e308)");
  }
  return value;
}

// Evaluates scalar expressions against one scope, binding only the names each text uses.
class ScalarEvaluator {
 public:
  explicit ScalarEvaluator(const Scope& scope) : scope_(scope) {}

  double Evaluate(std::string_view text) {
    const std::string_view trimmed = Trim(text);
    if (trimmed.empty()) throw ExpressionError("empty expression");
    // Most parameters are a number (`0.04`, `1e-4`) or a variable's name: neither needs the
    // parser, whose construction costs more than the rest of a compile. strtod rounds as
    // muParser's own number reader does (a stream, which reads with strtod).
    if (IsPlainNumber(trimmed)) return ReadNumber(trimmed);
    if (IsIdentifierText(trimmed)) {
      const Eigen::MatrixXd* value = scope_.Find(std::string(trimmed));
      if (value != nullptr && value->size() == 1) return (*value)(0, 0);
    }
    if (!expression_) expression_.emplace();
    const std::string t(trimmed);
    // Infinity is a value only where the text asks for it: by `inf`, or through a variable
    // that holds it. Elsewhere (1/(2-2), exp(1000)) it is a mistake, as NaN always is.
    bool infinity_written = false;
    for (const std::string& name : NamesIn(t)) {
      infinity_written = infinity_written || name == "inf";
      if (const auto it = bound_.find(name); it != bound_.end()) {
        infinity_written = infinity_written || std::isinf(it->second);
        continue;
      }
      if (MathExpression::IsReservedName(name)) continue;
      const Eigen::MatrixXd* value = scope_.Find(name);
      if (value == nullptr) continue;  // muParser reports it as an unknown name
      if (value->size() != 1) {
        throw ExpressionError("cannot evaluate '" + t + "': '" + name + "' is " + Describe(*value) +
                              ", not a scalar");
      }
      // std::map nodes never move, so the address stays valid for the parser's lifetime.
      double& slot = bound_[name];
      slot = (*value)(0, 0);
      infinity_written = infinity_written || std::isinf(slot);
      expression_->DefineVariable(name, &slot);
    }
    expression_->SetExpression(t);
    const double result = expression_->Evaluate();
    if (std::isnan(result)) {
      throw ExpressionError("cannot evaluate '" + t +
                            "': the result is not a number (NaN: 0/0, sqrt or log of a negative "
                            "number, inf - inf)");
    }
    if (std::isinf(result) && !infinity_written) {
      throw ExpressionError("cannot evaluate '" + t +
                            "': the result is infinite (a division by zero, or an overflow); "
                            "write inf where infinity is meant");
    }
    return result;
  }

 private:
  const Scope& scope_;
  std::optional<MathExpression> expression_;  ///< made for the first text that needs it
  std::map<std::string, double> bound_;
};

[[noreturn]] void Fail(std::string_view text, const std::string& reason) {
  throw ExpressionError("cannot evaluate '" + std::string(text) + "': " + reason);
}

// The index of the bracket closing the one at `open`; checks that ( ) and [ ] nest.
size_t FindClose(std::string_view text, size_t open) {
  std::vector<char> stack;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[') {
      stack.push_back(c);
    } else if (c == ')' || c == ']') {
      char want = stack.back() == '(' ? ')' : ']';
      if (c != want) {
        Fail(text, std::string("expected '") + want + "' at position " + std::to_string(i) +
                       ", found '" + c + "'");
      }
      stack.pop_back();
      if (stack.empty()) return i;
    }
  }
  Fail(text, std::string("expected '") + (stack.back() == '(' ? ')' : ']') + "' at the end");
}

// Calls each(item) for the pieces between the commas that are not inside parentheses or
// brackets (`atan2(1, 2), 3`), trimmed, in order: a vector literal of a million numbers is
// read in one pass, without a list of its pieces.
template <class Each>
void ForEachTopLevel(std::string_view s, Each&& each) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      each(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  each(Trim(s.substr(start)));
}

// The same pieces as a list (a matrix's rows: few).
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  // Sized first: a literal of a million elements would otherwise move its pieces some twenty
  // times as the vector grows.
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(std::count(s.begin(), s.end(), ',')) + 1);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(Trim(s.substr(start)));
  return out;
}

// `[ ... ]` with `open` at index 0 of `body`: returns the text between the brackets, and fails
// when anything follows the closing one.
std::string_view BracketContents(std::string_view whole, std::string_view body) {
  size_t close = FindClose(body, 0);
  std::string_view rest = Trim(body.substr(close + 1));
  if (!rest.empty()) Fail(whole, "unexpected '" + std::string(rest) + "' after ']'");
  return body.substr(1, close - 1);
}

// A plain decimal literal (`0.25`, `-3`, `1e-4`), read without the expression evaluator: a
// vector of a million numbers (a table pasted into a file) then costs its parse alone, about
// a tenth of the evaluator's. Anything else (a name, an operator, `inf`, a value out of a
// double's range) is left to the evaluator, whose reading and messages stay the rule.
std::optional<double> PlainNumber(std::string_view text) {
  const char first = text.front();
  const char second = text.size() > 1 ? text[1] : '\0';
  const bool starts_numeric = std::isdigit(static_cast<unsigned char>(first)) != 0 ||
                              (first == '.' && std::isdigit(static_cast<unsigned char>(second))) ||
                              (first == '-' && (std::isdigit(static_cast<unsigned char>(second)) ||
                                                second == '.'));
  if (!starts_numeric) return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::vector<double> EvaluateRow(std::string_view whole, std::string_view contents,
                                const std::string& what, ScalarEvaluator* eval) {
  std::vector<double> values;
  values.reserve(static_cast<size_t>(std::count(contents.begin(), contents.end(), ',')) + 1);
  // The element's name only for a message: a vector of millions is named once, not each time.
  auto element = [&what, &values] { return what + std::to_string(values.size() + 1); };
  ForEachTopLevel(contents, [&](std::string_view item) {
    if (item.empty()) Fail(whole, element() + " is empty");
    if (item.front() == '[') Fail(whole, element() + " is a row; expected a number");
    if (const std::optional<double> number = PlainNumber(item)) {
      values.push_back(*number);
      return;
    }
    try {
      values.push_back(eval->Evaluate(item));
    } catch (const ExpressionError& ex) {
      Fail(whole, element() + ": " + ReasonOf(ex, item));
    }
  });
  return values;
}

Eigen::MatrixXd EvaluateBracketed(std::string_view whole, ScalarEvaluator* eval) {
  std::string_view contents = Trim(BracketContents(whole, whole));
  if (contents.empty()) return Eigen::MatrixXd(0, 0);

  if (contents.front() != '[') {
    std::vector<double> v = EvaluateRow(whole, contents, "element ", eval);
    Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
    for (size_t i = 0; i < v.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = v[i];
    return m;
  }

  std::vector<std::string_view> rows = SplitTopLevel(contents);
  std::vector<std::vector<double>> values;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string row_name = "row " + std::to_string(r + 1);
    if (rows[r].empty()) Fail(whole, row_name + " is empty");
    if (rows[r].front() != '[') {
      Fail(whole, row_name + " '" + std::string(rows[r]) + "' is not a row '[...]'");
    }
    std::string_view row_contents = Trim(BracketContents(whole, rows[r]));
    if (row_contents.empty()) Fail(whole, row_name + " is empty");
    values.push_back(EvaluateRow(whole, row_contents, row_name + ", element ", eval));
    if (values.back().size() != values.front().size()) {
      Fail(whole, "ragged matrix: " + row_name + " has " + std::to_string(values.back().size()) +
                      " elements, row 1 has " + std::to_string(values.front().size()));
    }
  }
  Eigen::MatrixXd m(static_cast<Eigen::Index>(values.size()),
                    static_cast<Eigen::Index>(values.front().size()));
  for (size_t r = 0; r < values.size(); ++r) {
    for (size_t c = 0; c < values[r].size(); ++c) {
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = values[r][c];
    }
  }
  return m;
}

Eigen::MatrixXd Column(const std::vector<double>& v) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
  for (size_t i = 0; i < v.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = v[i];
  return m;
}

Eigen::MatrixXd Scalar(double x) {
  Eigen::MatrixXd m(1, 1);
  m(0, 0) = x;
  return m;
}

// Messages quote the parameter text; a line break in it (`&#10;` in the file) must not break
// the one-line rule of model errors.
ExpressionError Printable(const ExpressionError& ex) { return ExpressionError(OneLine(ex.what())); }

// A value written out may have as many elements as the file has room for: count them (at
// most one per comma or word) before any list of them is made.
void CheckValueCount(std::string_view text) {
  // Each item counted below takes a character of its own, so a text no longer than the limit
  // is within it: no pass over the characters (a 3 MB vector literal is well within 10^7).
  const std::int64_t limit = blocks::CurrentInputLimits().parameter_values;
  if (static_cast<std::int64_t>(text.size()) + 1 <= limit) return;
  std::int64_t items = 1;
  bool in_word = false;
  for (char c : text) {
    const bool space = IsSpace(c);
    if (c == ',' || (!space && !in_word)) ++items;
    in_word = !space && c != ',';
  }
  if (items <= limit) return;
  throw ExpressionError("a value of about " + std::to_string(items) + " elements is " +
                        blocks::OverLimit("parameter_values"));
}

Eigen::MatrixXd EvaluateNumericText(const std::string& text, const Scope& scope) {
  std::string_view t = Trim(text);
  if (t.empty()) {
    throw ExpressionError(
        "empty value; expected a number, a vector [a, b] or a matrix [[a, b], [c, d]]");
  }
  CheckValueCount(t);
  ScalarEvaluator eval(scope);
  if (t.front() == '[') return EvaluateBracketed(t, &eval);

  if (IsIdentifierText(t)) {
    if (const Eigen::MatrixXd* value = scope.Find(std::string(t))) return *value;
  }

  std::vector<std::string_view> words = SplitWhitespace(t);
  if (words.size() > 1) {
    // `0 -9.81` is the shorthand for a vector of two, not the difference it would be as an
    // expression: plain signed numbers separated by spaces always form a vector.
    bool all_numbers = true;
    for (std::string_view w : words) all_numbers = all_numbers && IsPlainNumber(w);
    if (all_numbers) {
      std::vector<double> v;
      v.reserve(words.size());
      for (std::string_view w : words) {
        const std::optional<double> number = PlainNumber(w);
        v.push_back(number ? *number : eval.Evaluate(w));
      }
      return Column(v);
    }
  }

  try {
    return Scalar(eval.Evaluate(t));
  } catch (const ExpressionError& ex) {
    // `2 * pi` is one expression; `pi 0 L` is not, but reads as a shorthand vector of
    // space-free expressions. When that fails too, the expression's own error says most.
    if (words.size() <= 1) throw;
    std::vector<double> v;
    try {
      for (std::string_view w : words) v.push_back(eval.Evaluate(w));
    } catch (const ExpressionError&) {
      throw ex;
    }
    return Column(v);
  }
}

blocks::ParamValue EvaluateParameterText(const std::string& text, const blocks::ParamSpec& spec,
                                         const Scope& scope) {
  using blocks::ParamKind;
  using blocks::ParamValue;
  if (IsAutoValue(spec, text)) return ParamValue::Text("auto");
  switch (spec.kind) {
    case ParamKind::kScalar: {
      Eigen::MatrixXd m = EvaluateNumericText(text, scope);
      if (m.size() != 1) throw ExpressionError("expected a scalar, got " + Describe(m));
      return ParamValue::Numeric(std::move(m));
    }
    case ParamKind::kVector: {
      Eigen::MatrixXd m = EvaluateNumericText(text, scope);
      if (m.size() != 0 && m.rows() != 1 && m.cols() != 1) {
        throw ExpressionError("expected a vector, got " + Describe(m));
      }
      Eigen::MatrixXd column = m.reshaped(m.size(), 1);
      return ParamValue::Numeric(std::move(column));
    }
    case ParamKind::kMatrix:
      return ParamValue::Numeric(EvaluateNumericText(text, scope));
    case ParamKind::kWord: {
      std::string word(Trim(text));
      if (spec.words.empty()) return ParamValue::Text(std::move(word));
      for (const std::string& w : spec.words) {
        if (w == word) return ParamValue::Text(std::move(word));
      }
      std::string valid;
      for (const std::string& w : spec.words) valid += (valid.empty() ? "" : " ") + w;
      throw ExpressionError("unknown word '" + word + "'; expected one of: " + valid);
    }
    case ParamKind::kString:
      return ParamValue::Text(text);
  }
  throw ExpressionError("unknown parameter kind");
}

}  // namespace

bool IsAutoValue(const blocks::ParamSpec& spec, std::string_view text) {
  return spec.allows_auto && Trim(text) == "auto";
}

Eigen::MatrixXd EvaluateNumeric(const std::string& text, const Scope& scope) {
  try {
    return EvaluateNumericText(text, scope);
  } catch (const ExpressionError& ex) {
    throw Printable(ex);
  }
}

blocks::ParamValue EvaluateParameter(const std::string& text, const blocks::ParamSpec& spec,
                                     const Scope& scope) {
  try {
    return EvaluateParameterText(text, spec, scope);
  } catch (const ExpressionError& ex) {
    throw Printable(ex);
  }
}

}  // namespace twinblocks::graph
