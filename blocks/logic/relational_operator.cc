#include "blocks/logic/relational_operator.h"

#include <memory>

namespace twinblocks::blocks {

RelationalOperator::RelationalOperator(const Params& params)
    : op_(internal::ParseCompareOp(params.Word("op"), "op")) {
  DeclareInput("u1");
  DeclareInput("u2");
  DeclareOutput("y");
}

void RelationalOperator::DoConfigure(const std::vector<int>& input_widths) {
  const int w = CommonWidth(input_widths);
  stride1_ = internal::StrideOf(input_widths[0]);
  stride2_ = internal::StrideOf(input_widths[1]);
  SetOutputWidth(0, w);
  DeclareModes(w);  // the output, 0 or 1
  DeclareZeroCrossings(w);
}

void RelationalOperator::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void RelationalOperator::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    const double* a = in(c, 0);
    const double* b = in(c, 1);
    for (int i = 0; i < n; ++i) mode[i] = internal::Compare(op_, a[i * stride1_], b[i * stride2_]);
  }
  for (int i = 0; i < n; ++i) y[i] = mode[i];
}

void RelationalOperator::DoCalcZeroCrossings(Context& c) const {
  const double* a = in(c, 0);
  const double* b = in(c, 1);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) z[i] = active ? a[i * stride1_] - b[i * stride2_] : 1.0;
}

BlockType RelationalOperatorType() {
  BlockType t;
  t.name = "RelationalOperator";
  t.category = "Discrete and logic";
  t.summary = "Compares two inputs: y is 1 or 0.";
  t.doc =
      "y = 1 where u1 op u2 holds, 0 elsewhere, element-wise with scalar expansion. Zero "
      "crossings (continuous rate): the result is a mode chosen at major steps and held "
      "inside solver steps; the zero-crossing function is u1 - u2, so variable-step solvers "
      "end the step where the comparison changes. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Relational Operator (zero-crossing detection on)";
  t.params = {
      {"op", ParamKind::kWord, "<=", "the comparison u1 op u2", internal::CompareOpWords()}};
  t.inputs = {{"u1", "left operand"}, {"u2", "right operand"}};
  t.outputs = {{"y", "1 or 0"}};
  t.create = [](const Params& p) { return std::make_unique<RelationalOperator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
