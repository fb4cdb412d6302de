#include "blocks/logic/compare_to_constant.h"

#include <memory>

namespace twinblocks::blocks {

CompareToConstant::CompareToConstant(const Params& params)
    : op_(internal::ParseCompareOp(params.Word("op"), "op")), value_param_(params.Vector("value")) {
  if (value_param_.size() == 0) throw BlockError("parameter 'value' is empty", "value");
  DeclareInput("u");
  DeclareOutput("y");
}

void CompareToConstant::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int nv = static_cast<int>(value_param_.size());
  if (nv > 1 && wu != 1) internal::CheckParamFitsWidth("value", nv, wu, "u");
  const int w = nv > 1 ? nv : wu;
  u_stride_ = internal::StrideOf(wu);
  value_ = internal::Expand(value_param_, w);
  SetOutputWidth(0, w);
  DeclareModes(w);  // the output, 0 or 1
  DeclareZeroCrossings(w);
}

void CompareToConstant::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void CompareToConstant::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    const double* u = in(c, 0);
    for (int i = 0; i < n; ++i) mode[i] = internal::Compare(op_, u[i * u_stride_], value_[i]);
  }
  for (int i = 0; i < n; ++i) y[i] = mode[i];
}

void CompareToConstant::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) z[i] = active ? u[i * u_stride_] - value_[i] : 1.0;
}

BlockType CompareToConstantType() {
  BlockType t;
  t.name = "CompareToConstant";
  t.category = "Discrete and logic";
  t.summary = "Compares the input with a constant: y is 1 or 0.";
  t.doc =
      "y = 1 where u op value holds, 0 elsewhere, element-wise (a scalar value applies to "
      "every element; a vector value per element). Zero crossings (continuous rate): the "
      "result is a mode chosen at major steps and held inside solver steps; the "
      "zero-crossing function is u - value. Inherited sample time; direct feedthrough. The "
      "defaults (op <=, value 3) are Simulink's.";
  t.reference = "Simulink Compare To Constant (zero-crossing detection on)";
  t.params = {
      {"op", ParamKind::kWord, "<=", "the comparison u op value", internal::CompareOpWords()},
      {"value", ParamKind::kVector, "3", "the constant, scalar or per element"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "1 or 0"}};
  t.create = [](const Params& p) { return std::make_unique<CompareToConstant>(p); };
  return t;
}

}  // namespace twinblocks::blocks
