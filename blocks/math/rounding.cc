#include "blocks/math/rounding.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Rounding::Rounding(const Params& params) {
  const std::string& f = params.Word("function");
  if (f == "ceil") function_ = Function::kCeil;
  if (f == "round") function_ = Function::kRound;
  if (f == "fix") function_ = Function::kFix;
  DeclareInput("u");
  DeclareOutput("y");
}

double Rounding::Round(Function f, double u) {
  switch (f) {
    case Function::kFloor:
      return std::floor(u);
    case Function::kCeil:
      return std::ceil(u);
    case Function::kRound:
      return std::round(u);  // halves away from zero, as MATLAB's round
    case Function::kFix:
      return std::trunc(u);
  }
  return u;
}

void Rounding::Interval(double k, double* lo, double* hi) const {
  switch (function_) {
    case Function::kFloor:
      *lo = k;
      *hi = k + 1.0;
      return;
    case Function::kCeil:
      *lo = k - 1.0;
      *hi = k;
      return;
    case Function::kRound:
      *lo = k - 0.5;
      *hi = k + 0.5;
      return;
    case Function::kFix:
      *lo = k > 0.0 ? k : k - 1.0;
      *hi = k < 0.0 ? k : k + 1.0;
      return;
  }
}

void Rounding::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  // The held whole numbers are doubles (they may pass any int): work memory, not modes,
  // written at major steps only.
  DeclareDWork(input_widths[0]);
  DeclareZeroCrossings(2 * std::int64_t{input_widths[0]});
}

void Rounding::DoInitialize(Context& c) const {
  double* k = dwork(c);
  for (int i = 0; i < num_dwork(); ++i) k[i] = 0.0;
}

void Rounding::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  double* k = dwork(c);
  const int n = out_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) k[i] = Round(function_, u[i]);
  }
  for (int i = 0; i < n; ++i) y[i] = k[i];
}

void Rounding::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  const double* k = dwork(c);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) {
    if (!active || !std::isfinite(k[i])) {
      z[2 * i] = z[2 * i + 1] = 1.0;
      continue;
    }
    double lo, hi;
    Interval(k[i], &lo, &hi);
    // Both positive inside the held interval; one changes sign where u leaves it.
    z[2 * i] = u[i] - lo;
    z[2 * i + 1] = hi - u[i];
  }
}

BlockType RoundingType() {
  BlockType t;
  t.name = "Rounding";
  t.category = "Math and continuous";
  t.summary = "floor, ceil, round or fix, element-wise.";
  t.doc =
      "y = floor(u) (toward -inf), ceil(u) (toward +inf), round(u) (to the nearest whole "
      "number, halves away from zero) or fix(u) (toward zero), element-wise. Zero crossings "
      "(continuous rate): each element's whole number k is a value chosen at major steps and "
      "held inside solver steps, so y is piecewise constant within a step; the zero-crossing "
      "functions are u - lo and hi - u for the interval [lo, hi] of u that rounds to k (floor: "
      "[k, k + 1)), so the solver lands on every jump. Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Rounding Function (zero-crossing detection on)";
  t.params = {{"function",
               ParamKind::kWord,
               "floor",
               "the rounding: floor, ceil, round or fix",
               {"floor", "ceil", "round", "fix"}}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the rounded input, width of u"}};
  t.create = [](const Params& p) { return std::make_unique<Rounding>(p); };
  return t;
}

}  // namespace twinblocks::blocks
