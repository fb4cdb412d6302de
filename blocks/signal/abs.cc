#include "blocks/signal/abs.h"

#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Abs::Abs(const Params& params) {
  DeclareInput("u");
  DeclareOutput("y");
}

void Abs::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  DeclareModes(input_widths[0]);  // +1 where u >= 0, -1 where u < 0
  DeclareZeroCrossings(input_widths[0]);
}

void Abs::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 1;
}

void Abs::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = in_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) mode[i] = u[i] >= 0.0 ? 1 : -1;
  }
  // Inside a step the held sign makes y smooth (and possibly negative) until the crossing.
  for (int i = 0; i < n; ++i) y[i] = mode[i] * u[i];
}

void Abs::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  const double* u = in(c, 0);
  const int n = in_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) z[i] = active ? u[i] : 1.0;
}

BlockType AbsType() {
  BlockType t;
  t.name = "Abs";
  t.category = "Math and continuous";
  t.summary = "Absolute value, element-wise.";
  t.doc =
      "y = |u| element-wise. Zero crossings (continuous rate): the sign of each element is a "
      "mode chosen at major steps and held inside solver steps (y = mode * u there); the "
      "zero-crossing function is u, so variable-step solvers end the step where u changes "
      "sign. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Abs (zero-crossing detection on)";
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "|u|, width of u"}};
  t.create = [](const Params& p) { return std::make_unique<Abs>(p); };
  return t;
}

}  // namespace twinblocks::blocks
