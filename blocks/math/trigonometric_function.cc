#include "blocks/math/trigonometric_function.h"

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "blocks/math/detail/domain_error.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

using TrigFunction = TrigonometricFunction::Function;

// The catalog's words, in the order of the enum.
constexpr std::array<const char*, 14> kTrigWords = {"sin",   "cos",   "tan",   "asin",  "acos",
                                                    "atan",  "atan2", "sinh",  "cosh",  "tanh",
                                                    "asinh", "acosh", "atanh", "sincos"};

// What an input that gives NaN was outside of, for the domain error.
const char* TrigDomain(TrigFunction f) {
  switch (f) {
    case TrigFunction::kAsin:
    case TrigFunction::kAcos:
      return "-1 <= u <= 1";
    case TrigFunction::kAcosh:
      return "u >= 1";
    case TrigFunction::kAtanh:
      return "-1 <= u <= 1";
    default:
      return "a finite u";  // sin, cos, tan of +-inf
  }
}

template <class F>
void ApplyTrig(const double* u, double* y, int n, F f) {
  for (int i = 0; i < n; ++i) y[i] = f(u[i]);
}

}  // namespace

TrigonometricFunction::TrigonometricFunction(const Params& params) {
  const std::string& word = params.Word("function");
  for (size_t k = 0; k < kTrigWords.size(); ++k) {
    if (word == kTrigWords[k]) {
      function_ = static_cast<Function>(k);
      name_ = kTrigWords[k];
    }
  }
  if (function_ == TrigFunction::kAtan2) {
    DeclareInput("u1");
    DeclareInput("u2");
  } else {
    DeclareInput("u");
  }
  if (function_ == TrigFunction::kSincos) {
    DeclareOutput("sin");
    DeclareOutput("cos");
  } else {
    DeclareOutput("y");
  }
}

void TrigonometricFunction::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);  // every output the inputs' common width
  if (function_ == TrigFunction::kAtan2) {
    s1_ = internal::StrideOf(input_widths[0]);
    s2_ = internal::StrideOf(input_widths[1]);
  }
}

void TrigonometricFunction::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const int n = out_width(0);
  switch (function_) {
    case TrigFunction::kSin:
      ApplyTrig(u, y, n, [](double v) { return std::sin(v); });
      break;
    case TrigFunction::kCos:
      ApplyTrig(u, y, n, [](double v) { return std::cos(v); });
      break;
    case TrigFunction::kTan:
      ApplyTrig(u, y, n, [](double v) { return std::tan(v); });
      break;
    case TrigFunction::kAsin:
      ApplyTrig(u, y, n, [](double v) { return std::asin(v); });
      break;
    case TrigFunction::kAcos:
      ApplyTrig(u, y, n, [](double v) { return std::acos(v); });
      break;
    case TrigFunction::kAtan:
      ApplyTrig(u, y, n, [](double v) { return std::atan(v); });
      break;
    case TrigFunction::kAtan2: {
      const double* x = in(c, 1);
      for (int i = 0; i < n; ++i) y[i] = std::atan2(u[i * s1_], x[i * s2_]);
      return;  // defined for every pair of numbers
    }
    case TrigFunction::kSinh:
      ApplyTrig(u, y, n, [](double v) { return std::sinh(v); });
      break;
    case TrigFunction::kCosh:
      ApplyTrig(u, y, n, [](double v) { return std::cosh(v); });
      break;
    case TrigFunction::kTanh:
      ApplyTrig(u, y, n, [](double v) { return std::tanh(v); });
      break;
    case TrigFunction::kAsinh:
      ApplyTrig(u, y, n, [](double v) { return std::asinh(v); });
      break;
    case TrigFunction::kAcosh:
      ApplyTrig(u, y, n, [](double v) { return std::acosh(v); });
      break;
    case TrigFunction::kAtanh:
      ApplyTrig(u, y, n, [](double v) { return std::atanh(v); });
      break;
    case TrigFunction::kSincos: {
      double* yc = out(c, 1);
      for (int i = 0; i < n; ++i) {
        y[i] = std::sin(u[i]);
        yc[i] = std::cos(u[i]);
      }
      break;
    }
  }
  if (!c.major) return;
  for (int i = 0; i < n; ++i) {
    if (std::isnan(y[i]) && !std::isnan(u[i])) {
      internal::ThrowDomainError(name_, TrigDomain(function_), i, "u", u[i]);
    }
  }
}

BlockType TrigonometricFunctionType() {
  BlockType t;
  t.name = "TrigonometricFunction";
  t.category = "Math and continuous";
  t.summary = "sin, cos, tan, their inverses, atan2, the hyperbolic functions, sincos.";
  t.doc =
      "y = f(u) element-wise, in radians, for `function` sin cos tan asin acos atan sinh cosh "
      "tanh asinh acosh atanh; atan2 takes two inputs, y = atan2(u1, u2) in (-pi, pi] (u1 "
      "the y coordinate, u2 the x coordinate, scalar expansion); sincos gives two outputs, "
      "sin = sin(u) and cos = cos(u). Domain: an input where f is not real (asin or acos "
      "outside [-1, 1], acosh below 1, atanh outside [-1, 1], sin of inf) stops the run at "
      "the major step that sees it, with the time, the block and the element; inside a solver "
      "step the NaN is left to the solver, which rejects the step (an input that leaves the "
      "domain continuously ends the run at the crossing, naming the state whose derivative "
      "is NaN). atanh(+-1) and tan near "
      "pi/2 give infinities without error. atan2 jumps by 2 pi across the negative u2 axis "
      "with no zero crossing. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Trigonometric Function (approximation method none, output in rad); cos + "
      "jsin (complex) is not offered";
  t.params = {{"function",
               ParamKind::kWord,
               "sin",
               "the function",
               {kTrigWords.begin(), kTrigWords.end()}}};
  t.inputs = {{"u", "the argument (rad for sin, cos, tan), any width"},
              {"u1", "atan2 only: the y coordinate"},
              {"u2", "atan2 only: the x coordinate"}};
  t.outputs = {
      {"y", "f(u), width of u"}, {"sin", "sincos only: sin(u)"}, {"cos", "sincos only: cos(u)"}};
  t.create = [](const Params& p) { return std::make_unique<TrigonometricFunction>(p); };
  return t;
}

}  // namespace twinblocks::blocks
