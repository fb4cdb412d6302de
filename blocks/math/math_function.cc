#include "blocks/math/math_function.h"

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "blocks/math/detail/domain_error.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

using MathFn = MathFunction::Function;

// The catalog's words, in the order of the enum.
constexpr std::array<const char*, 13> kMathWords = {
    "exp",  "log", "10^u",       "2^u",   "log10", "magnitude^2", "square",
    "sqrt", "pow", "reciprocal", "hypot", "rem",   "mod"};

const char* MathDomain(MathFn f) {
  switch (f) {
    case MathFn::kLog:
    case MathFn::kLog10:
    case MathFn::kSqrt:
      return "u >= 0";
    case MathFn::kPow:
      return "u1 >= 0 or a whole u2";
    case MathFn::kRem:
      return "u2 != 0 and a finite u1";
    case MathFn::kMod:
      return "a finite u1";
    default:
      return "numbers";  // inf - inf and the like
  }
}

// MATLAB's rem(x, y) = x - fix(x / y) y, which is fmod (exact); rem(x, 0) is NaN.
double MatlabRem(double x, double y) { return std::fmod(x, y); }

// MATLAB's mod(x, y) = x - floor(x / y) y, with the sign of y; mod(x, 0) = x. From fmod, which
// is exact, rather than from floor(x / y), which rounds.
double MatlabMod(double x, double y) {
  if (y == 0.0) return x;
  const double r = std::fmod(x, y);
  return r != 0.0 && ((r < 0.0) != (y < 0.0)) ? r + y : r;
}

template <class F>
void ApplyMath(const double* u, double* y, int n, F f) {
  for (int i = 0; i < n; ++i) y[i] = f(u[i]);
}

template <class F>
void ApplyMath2(const double* a, int sa, const double* b, int sb, double* y, int n, F f) {
  for (int i = 0; i < n; ++i) y[i] = f(a[i * sa], b[i * sb]);
}

}  // namespace

MathFunction::MathFunction(const Params& params) {
  const std::string& word = params.Word("function");
  for (size_t k = 0; k < kMathWords.size(); ++k) {
    if (word == kMathWords[k]) {
      function_ = static_cast<Function>(k);
      name_ = kMathWords[k];
    }
  }
  const bool two = function_ == MathFn::kPow || function_ == MathFn::kHypot ||
                   function_ == MathFn::kRem || function_ == MathFn::kMod;
  if (two) {
    DeclareInput("u1");
    DeclareInput("u2");
  } else {
    DeclareInput("u");
  }
  DeclareOutput("y");
}

void MathFunction::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);  // y has the inputs' common width
  if (binary()) {
    s1_ = internal::StrideOf(input_widths[0]);
    s2_ = internal::StrideOf(input_widths[1]);
  }
}

void MathFunction::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  const double* v = binary() ? in(c, 1) : nullptr;
  double* y = out(c, 0);
  const int n = out_width(0);
  switch (function_) {
    case MathFn::kExp:
      ApplyMath(u, y, n, [](double a) { return std::exp(a); });
      break;
    case MathFn::kLog:
      ApplyMath(u, y, n, [](double a) { return std::log(a); });
      break;
    case MathFn::kPow10:
      ApplyMath(u, y, n, [](double a) { return std::pow(10.0, a); });
      break;
    case MathFn::kPow2:
      ApplyMath(u, y, n, [](double a) { return std::exp2(a); });
      break;
    case MathFn::kLog10:
      ApplyMath(u, y, n, [](double a) { return std::log10(a); });
      break;
    case MathFn::kMagnitude2:
    case MathFn::kSquare:
      ApplyMath(u, y, n, [](double a) { return a * a; });
      break;
    case MathFn::kSqrt:
      ApplyMath(u, y, n, [](double a) { return std::sqrt(a); });
      break;
    case MathFn::kReciprocal:
      ApplyMath(u, y, n, [](double a) { return 1.0 / a; });
      break;
    case MathFn::kPow:
      ApplyMath2(u, s1_, v, s2_, y, n, [](double a, double b) { return std::pow(a, b); });
      break;
    case MathFn::kHypot:
      ApplyMath2(u, s1_, v, s2_, y, n, [](double a, double b) { return std::hypot(a, b); });
      break;
    case MathFn::kRem:
      ApplyMath2(u, s1_, v, s2_, y, n, MatlabRem);
      break;
    case MathFn::kMod:
      ApplyMath2(u, s1_, v, s2_, y, n, MatlabMod);
      break;
  }
  if (!c.major) return;
  for (int i = 0; i < n; ++i) {
    if (!std::isnan(y[i])) continue;
    if (!binary()) {
      if (!std::isnan(u[i])) internal::ThrowDomainError(name_, MathDomain(function_), i, "u", u[i]);
    } else if (!std::isnan(u[i * s1_]) && !std::isnan(v[i * s2_])) {
      internal::ThrowDomainError(name_, MathDomain(function_), i, u[i * s1_], v[i * s2_]);
    }
  }
}

BlockType MathFunctionType() {
  BlockType t;
  t.name = "MathFunction";
  t.category = "Math and continuous";
  t.summary = "exp, log, powers, square root, reciprocal, hypot, rem, mod.";
  t.doc =
      "y = f(u) element-wise for `function` exp (e^u), log (ln u), 10^u, 2^u, log10, "
      "magnitude^2 (u^2 for real signals), square (u^2), sqrt, reciprocal (1/u); and of two "
      "inputs with scalar expansion: pow (u1^u2), hypot (sqrt(u1^2 + u2^2), without overflow), "
      "rem (u1 - fix(u1/u2) u2, the sign of u1) and mod (u1 - floor(u1/u2) u2, the sign of u2; "
      "mod(u1, 0) = u1), as MATLAB's functions. Domain: an input where f is not a real number "
      "(log, log10 or sqrt of a negative u, pow of a negative u1 to a fractional u2, rem(u1, "
      "0)) stops the run at the major step that sees it, with the time, the block and the "
      "element (exit status 3 from the command line); inside a solver step the NaN is left to "
      "the solver, which rejects the step and tries a shorter one (an input that leaves the "
      "domain continuously ends the run where the solver can go no further, at the crossing, "
      "naming the state whose derivative is NaN). Infinities are results, not "
      "errors: log(0) = -inf, 1/0 = inf (they stop the run only where they reach a state's "
      "derivative). rem and mod jump where u1/u2 crosses a whole number, with no zero "
      "crossing. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Math Function (real signals), with sqrt from Simulink's Sqrt block; conj, "
      "transpose and hermitian are not offered (see Transpose); pow is u1^u2, not the signed "
      "power";
  t.params = {{"function",
               ParamKind::kWord,
               "exp",
               "the function",
               {kMathWords.begin(), kMathWords.end()}}};
  t.inputs = {{"u", "the argument, any width (one-input functions)"},
              {"u1", "pow, hypot, rem, mod: the first argument"},
              {"u2", "pow, hypot, rem, mod: the second argument (exponent, divisor)"}};
  t.outputs = {{"y", "f(u), the inputs' common width"}};
  t.create = [](const Params& p) { return std::make_unique<MathFunction>(p); };
  return t;
}

}  // namespace twinblocks::blocks
