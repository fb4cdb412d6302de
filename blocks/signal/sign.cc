#include "blocks/signal/sign.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Sign::Sign(const Params& params) {
  DeclareInput("u");
  DeclareOutput("y");
}

void Sign::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  DeclareModes(input_widths[0]);  // the output, -1, 0 or 1
  DeclareZeroCrossings(input_widths[0]);
}

void Sign::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void Sign::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = in_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) mode[i] = (u[i] > 0.0) - (u[i] < 0.0);
  }
  for (int i = 0; i < n; ++i) y[i] = mode[i];
}

void Sign::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  const double* u = in(c, 0);
  const int n = in_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) z[i] = active ? u[i] : 1.0;
}

BlockType SignType() {
  BlockType t;
  t.name = "Sign";
  t.category = "Math and continuous";
  t.summary = "Sign of the input, element-wise: -1, 0 or 1.";
  t.doc =
      "y = 1 where u > 0, 0 where u == 0, -1 where u < 0. Zero crossings (continuous rate): "
      "y is a mode chosen at major steps and held inside solver steps; the zero-crossing "
      "function is u. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Sign (zero-crossing detection on)";
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "sign(u), width of u"}};
  t.create = [](const Params& p) { return std::make_unique<Sign>(p); };
  return t;
}

}  // namespace twinblocks::blocks
