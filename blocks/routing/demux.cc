#include "blocks/routing/demux.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Demux::Demux(const Params& params) {
  const int n = params.Integer("outputs");
  if (n < 1) throw BlockError("parameter 'outputs' must be at least 1", "outputs");
  DeclareInput("u");
  CheckPortCountParam(n, "outputs");
  for (int j = 0; j < n; ++j) DeclareOutput(internal::NumberedPort("y", j));
}

void Demux::DoConfigure(const std::vector<int>& input_widths) {
  const int w = input_widths[0];
  const int n = num_outputs();
  if (w % n != 0) {
    throw BlockError("input 'u' has width " + std::to_string(w) + ", which does not split into " +
                         std::to_string(n) + " equal outputs",
                     "outputs", "u");
  }
  part_ = w / n;
  for (int j = 0; j < n; ++j) SetOutputWidth(j, part_);
}

void Demux::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  const int n = num_outputs();
  for (int j = 0; j < n; ++j) {
    double* y = out(c, j);
    for (int i = 0; i < part_; ++i) y[i] = *u++;
  }
}

BlockType DemuxType() {
  BlockType t;
  t.name = "Demux";
  t.category = "Routing and structure";
  t.summary = "Splits a vector into equal parts.";
  t.doc =
      "y_j = u[(j-1) w/n .. j w/n - 1] for j = 1..n, where w is the width of u and n = "
      "outputs; w must be a multiple of n. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Demux (equal split)";
  t.params = {{"outputs", ParamKind::kScalar, "2", "number of outputs"}};
  t.inputs = {{"u", "the vector to split"}};
  t.outputs = {{"y1..yn", "equal parts of u, in order"}};
  t.create = [](const Params& p) { return std::make_unique<Demux>(p); };
  return t;
}

}  // namespace twinblocks::blocks
