#include "blocks/signal/transfer_function.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/absolute_tolerance.h"

namespace twinblocks::blocks {

namespace {

/// The coefficients without leading zeros (highest power first).
std::vector<double> StripLeadingZeros(const Eigen::VectorXd& v) {
  int first = 0;
  while (first < v.size() && v(first) == 0.0) ++first;
  return std::vector<double>(v.data() + first, v.data() + v.size());
}

}  // namespace

TransferFunction::TransferFunction(const Params& params) {
  const std::vector<double> den = StripLeadingZeros(params.Vector("den"));
  std::vector<double> num = StripLeadingZeros(params.Vector("num"));
  if (den.empty()) throw BlockError("parameter 'den' is zero", "den");
  const int n = static_cast<int>(den.size()) - 1;
  if (static_cast<int>(num.size()) > n + 1) {
    throw BlockError("the transfer function is improper: num has degree " +
                         std::to_string(num.size() - 1) + ", den has degree " + std::to_string(n),
                     "num");
  }
  // b0..bn, highest power first, padded to the denominator's length; both divided by den[0].
  std::vector<double> b(n + 1, 0.0);
  for (size_t i = 0; i < num.size(); ++i) b[n + 1 - num.size() + i] = num[i] / den[0];
  a_.resize(n);
  c_.resize(n);
  for (int i = 0; i < n; ++i) a_[i] = den[i + 1] / den[0];
  d_ = b[0];
  for (int i = 0; i < n; ++i) c_[i] = b[i + 1] - d_ * a_[i];
  DeclareInput("u", 1, d_ != 0.0 ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareContinuousStates(n);
  const Eigen::VectorXd abs_tol = internal::ReadAbsoluteTolerance(params, "abs_tol");
  if (abs_tol.size() > 0) {
    DeclareAbsoluteTolerances(
        internal::ExpandAbsoluteTolerance(abs_tol, "abs_tol", n, "the order of den"));
  }
}

void TransferFunction::DoConfigure(const std::vector<int>& input_widths) {}

void TransferFunction::DoInitialize(Context& c) const {
  double* x = this->x(c);
  for (int i = 0; i < order(); ++i) x[i] = 0.0;
}

void TransferFunction::DoCalcOutputs(Context& c, int stage) const {
  const double* x = this->x(c);
  const int n = order();
  double y = 0.0;
  for (int i = 0; i < n; ++i) y += c_[i] * x[i];
  // Without feedthrough u may not be computed yet at this point of the step: do not read it.
  if (d_ != 0.0) y += d_ * in(c, 0)[0];
  out(c, 0)[0] = y;
}

void TransferFunction::DoCalcDerivatives(Context& c) const {
  const double* x = this->x(c);
  double* xdot = this->xdot(c);
  const int n = order();
  if (n == 0) return;
  double x1dot = in(c, 0)[0];
  for (int i = 0; i < n; ++i) x1dot -= a_[i] * x[i];
  for (int i = n - 1; i > 0; --i) xdot[i] = x[i - 1];
  xdot[0] = x1dot;
}

BlockType TransferFunctionType() {
  BlockType t;
  t.name = "TransferFunction";
  t.category = "Math and continuous";
  t.summary = "A proper SISO transfer function num(s)/den(s).";
  t.doc =
      "Y(s)/U(s) = (b0 s^n + ... + bn) / (s^n + a1 s^(n-1) + ... + an) after dividing num and "
      "den by den's leading coefficient (leading zeros are dropped; num may not have a "
      "higher degree than den). Realized in controllable canonical form with zero initial "
      "state: x1' = -a1 x1 - ... - an xn + u, x(k+1)' = x(k), y = sum_i (b_i - b0 a_i) x_i "
      "+ b0 u. Direct feedthrough only when b0 != 0 (equal degrees). Continuous sample time; "
      "u and y are scalars.";
  t.reference = "Simulink Transfer Fcn";
  t.params = {
      {"num", ParamKind::kVector, "1", "numerator coefficients, highest power first"},
      {"den", ParamKind::kVector, "[1, 1]", "denominator coefficients, highest power first"},
      internal::AbsoluteToleranceParam("abs_tol", "the states")};
  t.inputs = {{"u", "input, scalar"}};
  t.outputs = {{"y", "output, scalar"}};
  t.create = [](const Params& p) { return std::make_unique<TransferFunction>(p); };
  return t;
}

}  // namespace twinblocks::blocks
