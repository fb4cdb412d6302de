#include "model/parameter_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <string>

#include "blocks/math_expression.h"

namespace twinblocks::graph {
namespace {

using blocks::ExpressionError;
using blocks::ParamKind;
using blocks::ParamSpec;

Eigen::MatrixXd Col(std::initializer_list<double> v) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
  Eigen::Index i = 0;
  for (double x : v) m(i++, 0) = x;
  return m;
}

Eigen::MatrixXd One(double x) { return Col({x}); }

// The message of the ExpressionError that evaluating `text` throws ("" when none is thrown).
std::string NumericError(const std::string& text, const Scope& scope = Scope()) {
  try {
    EvaluateNumeric(text, scope);
  } catch (const ExpressionError& ex) {
    return ex.what();
  }
  return "";
}

std::string ParamError(const std::string& text, const ParamSpec& spec,
                       const Scope& scope = Scope()) {
  try {
    EvaluateParameter(text, spec, scope);
  } catch (const ExpressionError& ex) {
    return ex.what();
  }
  return "";
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

ParamSpec Spec(ParamKind kind, std::vector<std::string> words = {}) {
  ParamSpec s;
  s.name.assign(1, 'p');  // assigning a literal trips a false -Wrestrict in GCC 12
  s.kind = kind;
  s.words = std::move(words);
  return s;
}

TEST(ScopeTest, FindsInParentsAndInnerShadowsOuter) {
  Scope outer;
  outer.Set("a", One(1));
  outer.Set("b", One(2));
  outer.Set("v", Col({1, 2}));
  Scope inner(&outer);
  inner.Set("a", One(10));
  inner.Set("b", Col({3, 4, 5}));
  ASSERT_NE(inner.Find("a"), nullptr);
  EXPECT_EQ((*inner.Find("a"))(0, 0), 10);
  EXPECT_EQ(inner.Find("v")->size(), 2);
  EXPECT_EQ(inner.Find("nope"), nullptr);
  std::map<std::string, double> scalars = inner.Scalars();
  EXPECT_EQ(scalars.size(), 1u);  // b is hidden by the inner vector, v is no scalar
  EXPECT_EQ(scalars.at("a"), 10);
}

TEST(EvaluateNumericTest, ScalarExpressions) {
  Scope scope;
  scope.Set("L", One(0.5));
  scope.Set("f", One(2));
  EXPECT_EQ(EvaluateNumeric("0.5", scope), One(0.5));
  EXPECT_EQ(EvaluateNumeric("  L/2 ", scope), One(0.25));
  EXPECT_DOUBLE_EQ(EvaluateNumeric("2*pi*f", scope)(0, 0), 4 * std::numbers::pi);
  EXPECT_DOUBLE_EQ(EvaluateNumeric("deg(180)", scope)(0, 0), std::numbers::pi);
  EXPECT_DOUBLE_EQ(EvaluateNumeric("atan2(1, 1)", scope)(0, 0), std::numbers::pi / 4);
  EXPECT_DOUBLE_EQ(EvaluateNumeric("2^3 + e", scope)(0, 0), 8 + std::numbers::e);
  EXPECT_EQ(EvaluateNumeric("1e-3", scope), One(1e-3));
  EXPECT_EQ(EvaluateNumeric("-inf", scope)(0, 0), -INFINITY);
}

// Plain numbers and names skip the expression parser; "(x)" goes through it. The two must
// agree to the last bit, or a model's results would depend on how a parameter is spelled.
TEST(EvaluateNumericTest, PlainNumbersAndNamesAreReadAsTheParserReadsThem) {
  Scope scope;
  scope.Set("a", One(0.1 + 0.2));
  for (const char* text : {"0.1", "1e-4", "-3.3e-7", "+2.", ".5e+3", "123456789012345678901234567",
                           "2.2250738585072014e-308", "4.9e-324", "1e-330",
                           "1.7976931348623157e308", "-0", "a", "0.30000000000000004"}) {
    const double direct = EvaluateNumeric(text, scope)(0, 0);
    const double parsed = EvaluateNumeric("(" + std::string(text) + ")", scope)(0, 0);
    EXPECT_EQ(std::memcmp(&direct, &parsed, sizeof(double)), 0)
        << text << ": " << direct << " against the parser's " << parsed;
    const double element = EvaluateNumeric("[" + std::string(text) + ", 1]", scope)(0, 0);
    EXPECT_EQ(std::memcmp(&element, &parsed, sizeof(double)), 0) << "[" << text << ", 1]";
  }
  EXPECT_TRUE(std::signbit(EvaluateNumeric("-0", scope)(0, 0)));
}

TEST(EvaluateNumericTest, NumberBeyondTheLargestDoubleIsAnError) {
  EXPECT_CONTAINS(NumericError("1e400"),
                  "cannot evaluate '1e400': the number is beyond the largest double (1.8e308)");
  EXPECT_CONTAINS(NumericError("[2, -1e309]"), "element 2: the number is beyond the largest");
  EXPECT_CONTAINS(NumericError("(1e400)"), "cannot evaluate '(1e400)'");
  EXPECT_EQ(EvaluateNumeric("inf", Scope())(0, 0), INFINITY);
}

TEST(EvaluateNumericTest, ExpressionWithSpacesIsOneScalar) {
  EXPECT_DOUBLE_EQ(EvaluateNumeric("2 * pi", Scope())(0, 0), 2 * std::numbers::pi);
  EXPECT_EQ(EvaluateNumeric("1 - 2", Scope()), One(-1));
  EXPECT_EQ(EvaluateNumeric("( 1 + 2 ) * 3", Scope()), One(9));
}

TEST(EvaluateNumericTest, BracketVectorIsAColumn) {
  Scope scope;
  scope.Set("L", One(2));
  EXPECT_EQ(EvaluateNumeric("[0, 0, -9.81]", scope), Col({0, 0, -9.81}));
  EXPECT_EQ(EvaluateNumeric("[0, 0, -L]", scope), Col({0, 0, -2}));
  EXPECT_EQ(EvaluateNumeric("[ 1 ]", scope), One(1));
  Eigen::MatrixXd v = EvaluateNumeric("[atan2(1, 2), 3, max(1, min(2, 3))]", scope);
  EXPECT_EQ(v, Col({std::atan2(1.0, 2.0), 3, 2}));
}

TEST(EvaluateNumericTest, WhitespaceShorthand) {
  EXPECT_EQ(EvaluateNumeric("0 0 -9.81", Scope()), Col({0, 0, -9.81}));
  EXPECT_EQ(EvaluateNumeric(" 1.5e2\t+2 .5 ", Scope()), Col({150, 2, 0.5}));
  // Plain numbers separated by spaces are the shorthand, even where an expression could read
  // them as a difference.
  EXPECT_EQ(EvaluateNumeric("0 -9.81", Scope()), Col({0, -9.81}));
  // Space-free expressions also work as elements.
  Scope scope;
  scope.Set("L", One(3));
  EXPECT_EQ(EvaluateNumeric("L 0 -L", scope), Col({3, 0, -3}));
  EXPECT_DOUBLE_EQ(EvaluateNumeric("pi/2 0", scope)(0, 0), std::numbers::pi / 2);
}

TEST(EvaluateNumericTest, Matrix) {
  Eigen::MatrixXd expected(2, 3);
  expected << 1, 2, 3, 4, 5, 6;
  EXPECT_EQ(EvaluateNumeric("[[1, 2, 3], [4, 5, 6]]", Scope()), expected);
  EXPECT_EQ(EvaluateNumeric(" [ [1,2,3] ,[4,5, 2*3] ] ", Scope()), expected);
  Eigen::MatrixXd row(1, 2);
  row << 7, atan2(1.0, 1.0);
  EXPECT_EQ(EvaluateNumeric("[[7, atan2(1, 1)]]", Scope()), row);
}

TEST(EvaluateNumericTest, EmptyBrackets) {
  EXPECT_EQ(EvaluateNumeric("[]", Scope()).size(), 0);
  EXPECT_EQ(EvaluateNumeric("[  ]", Scope()).size(), 0);
}

TEST(EvaluateNumericTest, NonScalarVariableByName) {
  Scope scope;
  Eigen::MatrixXd inertia = Eigen::MatrixXd::Identity(3, 3);
  scope.Set("I", inertia);
  scope.Set("g", Col({0, 0, -9.81}));
  Scope inner(&scope);
  EXPECT_EQ(EvaluateNumeric("I", inner), inertia);
  EXPECT_EQ(EvaluateNumeric(" g ", inner), Col({0, 0, -9.81}));
  EXPECT_CONTAINS(NumericError("2*g", inner), "'g' is a vector of 3, not a scalar");
  EXPECT_CONTAINS(NumericError("[1, g]", inner), "element 2");
}

TEST(EvaluateNumericTest, Errors) {
  EXPECT_EQ(NumericError("[1, foo]"),
            "cannot evaluate '[1, foo]': element 2: unknown name 'foo' at position 0");
  EXPECT_CONTAINS(NumericError("foo"), "unknown name 'foo'");
  EXPECT_CONTAINS(NumericError("2*foo + 1"), "unknown name 'foo'");
  EXPECT_CONTAINS(NumericError("[1, foo]"), "element 2: unknown name 'foo'");
  EXPECT_CONTAINS(NumericError("[1, 2"), "expected ']'");
  EXPECT_CONTAINS(NumericError("[1, (2]"), "expected ')'");
  EXPECT_CONTAINS(NumericError("[1, 2]]"), "unexpected ']' after ']'");
  EXPECT_CONTAINS(NumericError("[1, 2] 3"), "unexpected '3' after ']'");
  EXPECT_CONTAINS(NumericError("[1, , 2]"), "element 2 is empty");
  EXPECT_CONTAINS(NumericError("[1, 2,]"), "element 3 is empty");
  EXPECT_CONTAINS(NumericError("[[1, 2], [3]]"),
                  "ragged matrix: row 2 has 1 elements, row 1 has 2");
  EXPECT_CONTAINS(NumericError("[[1, 2], 3]"), "row 2 '3' is not a row");
  EXPECT_CONTAINS(NumericError("[1, [2, 3]]"), "element 2 is a row");
  EXPECT_CONTAINS(NumericError("[[1, 2], [3, x]]"), "row 2, element 2: unknown name 'x'");
  EXPECT_CONTAINS(NumericError(""), "empty value");
  EXPECT_CONTAINS(NumericError("   "), "empty value");
  EXPECT_CONTAINS(NumericError("1 +"), "cannot evaluate '1 +'");
  // A shorthand with a bad element reports the expression's own error.
  EXPECT_CONTAINS(NumericError("1 2 foo"), "cannot evaluate '1 2 foo'");
  EXPECT_CONTAINS(NumericError("sin("), "cannot evaluate");
}

TEST(EvaluateNumericTest, MessagesStayOnOneLine) {
  std::string msg = NumericError("1 +\n foo");
  EXPECT_CONTAINS(msg, "cannot evaluate '1 +\\n foo'");
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  msg = ParamError("a\tb\nc", Spec(ParamKind::kWord, {"x"}));
  EXPECT_CONTAINS(msg, "unknown word 'a\\tb\\nc'");
}

TEST(EvaluateParameterTest, Scalar) {
  blocks::ParamValue v = EvaluateParameter("2*3", Spec(ParamKind::kScalar), Scope());
  ASSERT_TRUE(v.is_numeric());
  EXPECT_EQ(v.numeric(), One(6));
  EXPECT_EQ(EvaluateParameter("[4]", Spec(ParamKind::kScalar), Scope()).numeric(), One(4));
  EXPECT_CONTAINS(ParamError("[1, 2, 3]", Spec(ParamKind::kScalar)),
                  "expected a scalar, got a vector of 3");
  EXPECT_CONTAINS(ParamError("[[1, 2], [3, 4]]", Spec(ParamKind::kScalar)),
                  "expected a scalar, got a 2x2 matrix");
  EXPECT_CONTAINS(ParamError("[]", Spec(ParamKind::kScalar)),
                  "expected a scalar, got an empty value");
  EXPECT_CONTAINS(ParamError("bar", Spec(ParamKind::kScalar)), "unknown name 'bar'");
}

TEST(EvaluateParameterTest, VectorIsAlwaysAColumn) {
  ParamSpec spec = Spec(ParamKind::kVector);
  EXPECT_EQ(EvaluateParameter("[1, 2, 3]", spec, Scope()).numeric(), Col({1, 2, 3}));
  EXPECT_EQ(EvaluateParameter("[[1, 2, 3]]", spec, Scope()).numeric(), Col({1, 2, 3}));
  EXPECT_EQ(EvaluateParameter("[[1], [2]]", spec, Scope()).numeric(), Col({1, 2}));
  EXPECT_EQ(EvaluateParameter("5", spec, Scope()).numeric(), One(5));
  EXPECT_EQ(EvaluateParameter("1 2", spec, Scope()).numeric(), Col({1, 2}));
  Eigen::MatrixXd empty = EvaluateParameter("[]", spec, Scope()).numeric();
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.cols(), 1);
  EXPECT_CONTAINS(ParamError("[[1, 2], [3, 4]]", spec), "expected a vector, got a 2x2 matrix");
}

TEST(EvaluateParameterTest, MatrixTakesAnyShape) {
  ParamSpec spec = Spec(ParamKind::kMatrix);
  Eigen::MatrixXd m(2, 2);
  m << 1, 2, 3, 4;
  EXPECT_EQ(EvaluateParameter("[[1, 2], [3, 4]]", spec, Scope()).numeric(), m);
  EXPECT_EQ(EvaluateParameter("[1, 2]", spec, Scope()).numeric(), Col({1, 2}));
  EXPECT_EQ(EvaluateParameter("3", spec, Scope()).numeric(), One(3));
}

TEST(EvaluateParameterTest, Word) {
  ParamSpec spec = Spec(ParamKind::kWord, {"sphere", "box", "cylinder"});
  blocks::ParamValue v = EvaluateParameter(" box ", spec, Scope());
  EXPECT_FALSE(v.is_numeric());
  EXPECT_EQ(v.text(), "box");
  EXPECT_CONTAINS(ParamError("cylindr", spec),
                  "unknown word 'cylindr'; expected one of: sphere box cylinder");
  EXPECT_CONTAINS(ParamError("", spec), "unknown word ''");
  // Without a list of words any word is taken.
  EXPECT_EQ(EvaluateParameter("anything", Spec(ParamKind::kWord), Scope()).text(), "anything");
}

TEST(EvaluateParameterTest, StringIsKeptAsIs) {
  blocks::ParamValue v =
      EvaluateParameter(" data/q measured.csv ", Spec(ParamKind::kString), Scope());
  EXPECT_TRUE(v.is_set());
  EXPECT_FALSE(v.is_numeric());
  EXPECT_EQ(v.text(), " data/q measured.csv ");
}

}  // namespace
}  // namespace twinblocks::graph
