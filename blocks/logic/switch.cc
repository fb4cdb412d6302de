#include "blocks/logic/switch.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Switch::Switch(const Params& params) : threshold_(params.Scalar("threshold")) {
  const std::string& criteria = params.Word("criteria");
  if (criteria == ">") criteria_ = Criteria::kGreater;
  if (criteria == "!=0") criteria_ = Criteria::kNonZero;
  DeclareInput("u1");
  DeclareInput("u2");
  DeclareInput("u3");
  DeclareOutput("y");
}

void Switch::DoConfigure(const std::vector<int>& input_widths) {
  const int w = CommonWidth(input_widths);
  s1_ = internal::StrideOf(input_widths[0]);
  s2_ = internal::StrideOf(input_widths[1]);
  s3_ = internal::StrideOf(input_widths[2]);
  SetOutputWidth(0, w);
  DeclareModes(w);  // 1: pass u1, 0: pass u3
  DeclareZeroCrossings(w);
}

void Switch::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 1;
}

void Switch::DoCalcOutputs(Context& c, int stage) const {
  const double* u1 = in(c, 0);
  const double* u3 = in(c, 2);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    const double* u2 = in(c, 1);
    for (int i = 0; i < n; ++i) mode[i] = Passes(u2[i * s2_]) ? 1 : 0;
  }
  for (int i = 0; i < n; ++i) y[i] = mode[i] != 0 ? u1[i * s1_] : u3[i * s3_];
}

void Switch::DoCalcZeroCrossings(Context& c) const {
  const double* u2 = in(c, 1);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  const double offset = criteria_ == Criteria::kNonZero ? 0.0 : threshold_;
  for (int i = 0; i < n; ++i) z[i] = active ? u2[i * s2_] - offset : 1.0;
}

BlockType SwitchType() {
  BlockType t;
  t.name = "Switch";
  t.category = "Discrete and logic";
  t.summary = "Passes u1 or u3 depending on the control input u2.";
  t.doc =
      "y = u1 where u2 meets the criteria, y = u3 elsewhere, element-wise with scalar "
      "expansion (a scalar u2 switches every element). Criteria: `>=` u2 >= threshold, `>` "
      "u2 > threshold, `!=0` u2 != 0. Zero crossings (continuous rate): the choice is a mode "
      "chosen at major steps and held inside solver steps; the zero-crossing function is "
      "u2 - threshold (u2 for `!=0`). Inherited sample time; all inputs direct feedthrough.";
  t.reference = "Simulink Switch (zero-crossing detection on)";
  t.params = {{"threshold", ParamKind::kScalar, "0", "threshold on u2"},
              {"criteria", ParamKind::kWord, ">=", "when u1 passes", {">=", ">", "!=0"}}};
  t.inputs = {{"u1", "passed when u2 meets the criteria"},
              {"u2", "control input"},
              {"u3", "passed otherwise"}};
  t.outputs = {{"y", "u1 or u3"}};
  t.create = [](const Params& p) { return std::make_unique<Switch>(p); };
  return t;
}

}  // namespace twinblocks::blocks
