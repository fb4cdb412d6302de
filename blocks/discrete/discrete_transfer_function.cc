#include "blocks/discrete/discrete_transfer_function.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

std::vector<double> CoefficientsOf(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

void CheckFiniteCoefficients(const std::vector<double>& v, const char* param) {
  for (double x : v) {
    if (!std::isfinite(x)) {
      throw BlockError(std::string("parameter '") + param + "' must hold finite coefficients",
                       param);
    }
  }
}

}  // namespace

DiscreteTransferFunction::DiscreteTransferFunction(const Params& params, Form form) {
  std::vector<double> num = CoefficientsOf(params.Vector("num"));
  std::vector<double> den = CoefficientsOf(params.Vector("den"));
  CheckFiniteCoefficients(num, "num");
  CheckFiniteCoefficients(den, "den");
  if (den.empty()) throw BlockError("parameter 'den' is empty", "den");
  if (form == Form::kPowersOfZInverse) {
    if (den[0] == 0.0) {
      throw BlockError(
          "parameter 'den' must start with a nonzero coefficient (a0, of z^0; a filter whose "
          "a0 is 0 is not causal)",
          "den");
    }
    // Times z^n with n the longer length - 1: both become polynomials in z of degree n, and
    // the trailing coefficients are the zeros the shorter one lacked (poles or zeros at 0).
    const size_t len = std::max(num.size(), den.size());
    num.resize(len, 0.0);
    den.resize(len, 0.0);
  } else {
    if (den[0] == 0.0) {
      throw BlockError(
          "parameter 'den' must start with a nonzero coefficient (of the highest power of z)",
          "den");
    }
    size_t first = 0;  // leading zeros of num lower its degree
    while (first < num.size() && num[first] == 0.0) ++first;
    num.erase(num.begin(), num.begin() + static_cast<std::ptrdiff_t>(first));
    if (num.size() > den.size()) {
      throw BlockError("the transfer function is improper: num has degree " +
                           std::to_string(num.size() - 1) + ", den has degree " +
                           std::to_string(den.size() - 1) + " (a causal block needs at most den's)",
                       "num");
    }
  }
  const int n = static_cast<int>(den.size()) - 1;
  // b0..bn, highest power first, padded to the denominator's length; both divided by den[0].
  std::vector<double> b(n + 1, 0.0);
  for (size_t i = 0; i < num.size(); ++i) b[n + 1 - num.size() + i] = num[i] / den[0];
  a_.resize(n);
  c_.resize(n);
  for (int i = 0; i < n; ++i) a_[i] = den[i + 1] / den[0];
  d_ = b[0];
  for (int i = 0; i < n; ++i) c_[i] = b[i + 1] - d_ * a_[i];
  DeclareInput("u", kDynamicWidth, d_ != 0.0 ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y");
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")),
                    /*requires_discrete=*/n > 0);
}

void DiscreteTransferFunction::DoConfigure(const std::vector<int>& input_widths) {
  width_ = input_widths[0];
  SetOutputWidth(0, width_);
  DeclareDiscreteStates(static_cast<std::int64_t>(width_) * order());
}

void DiscreteTransferFunction::DoInitialize(Context& c) const {
  double* x = xd(c);
  for (int i = 0; i < num_discrete_states(); ++i) x[i] = 0.0;
}

void DiscreteTransferFunction::DoCalcOutputs(Context& c, int stage) const {
  const Context& cc = c;
  const int n = order();
  double* y = out(c, 0);
  // Without feedthrough u may not be computed yet at this point of the step: do not read it.
  const double* u = d_ != 0.0 ? in(c, 0) : nullptr;
  for (int e = 0; e < width_; ++e) {
    const double* x = xd(cc) + e * n;
    double v = 0.0;
    for (int j = 0; j < n; ++j) v += c_[j] * x[j];
    y[e] = u != nullptr ? v + d_ * u[e] : v;
  }
}

void DiscreteTransferFunction::DoUpdate(Context& c) const {
  const int n = order();
  if (n == 0) return;
  const double* u = in(c, 0);
  for (int e = 0; e < width_; ++e) {
    double* x = xd(c) + e * n;
    double x1 = u[e];
    for (int j = 0; j < n; ++j) x1 -= a_[j] * x[j];
    for (int j = n - 1; j > 0; --j) x[j] = x[j - 1];
    x[0] = x1;
  }
}

BlockType DiscreteTransferFunctionType() {
  BlockType t;
  t.name = "DiscreteTransferFunction";
  t.category = "Discrete and logic";
  t.summary = "A proper discrete transfer function num(z)/den(z).";
  t.doc =
      "Y(z)/U(z) = (b0 z^m + ... + bm) / (a0 z^n + ... + an), coefficients in descending "
      "powers of z. a0 must be nonzero; leading zeros of num are dropped and then m <= n "
      "(proper: a causal block). After dividing by a0 and padding num to n + 1 "
      "coefficients, it is realized in controllable canonical form with zero initial state: "
      "x1[k+1] = u[k] - a1 x1[k] - ... - an xn[k], x(j+1)[k+1] = xj[k], y[k] = sum_j (b_j - "
      "b0 a_j) xj[k] + b0 u[k], at each hit t_k = offset + k Ts. Direct feedthrough only "
      "when b0 != 0 (m = n). Element-wise: each element of u runs its own copy. Ts = -1 "
      "inherits the input's rate.";
  t.reference =
      "Simulink Discrete Transfer Fcn (zero initial states; element-wise over a vector "
      "input)";
  t.params = {
      {"num", ParamKind::kVector, "1", "numerator coefficients, descending powers of z"},
      {"den", ParamKind::kVector, "[1, 0.5]", "denominator coefficients, descending powers of z"},
      {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
      {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "output, width of u"}};
  t.create = [](const Params& p) {
    return std::make_unique<DiscreteTransferFunction>(p,
                                                      DiscreteTransferFunction::Form::kPowersOfZ);
  };
  return t;
}

}  // namespace twinblocks::blocks
