#include "blocks/signal/sum.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Sum::Sum(const Params& params) {
  for (bool minus : internal::ParseOperatorList(params.String("signs"), "signs", '+', '-')) {
    signs_.push_back(minus ? -1.0 : 1.0);
  }
  DeclareOperands(static_cast<int>(signs_.size()));
}

void Sum::DoConfigure(const std::vector<int>& input_widths) {
  ConfigureOperands(input_widths);
  if (input_widths.size() == 1) return;
  scalar_pair_ = input_widths.size() == 2 && input_widths[0] == 1 && input_widths[1] == 1;
  s0_ = signs_[0];
  s1_ = signs_[1];
}

void Sum::DoCalcOutputs(Context& c, int stage) const {
  if (scalar_pair_) {
    out(c, 0)[0] = s0_ * in(c, 0)[0] + s1_ * in(c, 1)[0];
    return;
  }
  double* y = out(c, 0);
  const int m = num_inputs();
  if (m == 1) {
    const double* u = in(c, 0);
    const int n = in_width(0);
    double acc = 0.0;
    for (int i = 0; i < n; ++i) acc += u[i];
    y[0] = signs_[0] * acc;
    return;
  }
  const int n = out_width(0);
  const double* s = signs_.data();
  const int* stride = strides_.data();
  if (m == 2) {  // the common case, without the inner loop
    const double* a = in(c, 0);
    const double* b = in(c, 1);
    for (int i = 0; i < n; ++i) y[i] = s[0] * a[i * stride[0]] + s[1] * b[i * stride[1]];
    return;
  }
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    const double sj = s[j];
    const int st = stride[j];
    for (int i = 0; i < n; ++i) y[i] += sj * u[i * st];
  }
}

BlockType SumType() {
  BlockType t;
  t.name = "Sum";
  t.category = "Math and continuous";
  t.summary = "Adds and subtracts its inputs.";
  t.doc =
      "y = s_1 u1 + s_2 u2 + ... with one input per '+' or '-' of `signs` ('|' is a spacer "
      "and ignored). Element-wise: inputs have equal widths or are scalars, which expand. "
      "With a single sign, the one input's elements are summed: y = s_1 * sum_i u1_i "
      "(scalar). Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Sum (list of signs; sum over elements for one input)";
  t.params = {{"signs", ParamKind::kString, "++", "one '+' or '-' per input; '|' ignored"}};
  t.inputs = {{"u1..un", "the terms, equal widths or scalars"}};
  t.outputs = {{"y", "the sum"}};
  t.create = [](const Params& p) { return std::make_unique<Sum>(p); };
  return t;
}

}  // namespace twinblocks::blocks
