#include "blocks/routing/mux.h"

#include <cstdint>
#include <limits>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Mux::Mux(const Params& params) {
  const int n = params.Integer("inputs");
  if (n < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(n, "inputs");
  for (int j = 0; j < n; ++j) DeclareInput(internal::NumberedPort("u", j));
  DeclareOutput("y");
}

void Mux::DoConfigure(const std::vector<int>& input_widths) {
  // In 64 bits: the sum is checked against the signal_width limit by Configure.
  std::int64_t total = 0;
  for (int w : input_widths) total += w;
  if (total > std::numeric_limits<int>::max()) total = std::numeric_limits<int>::max();
  SetOutputWidth(0, static_cast<int>(total));
}

void Mux::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int m = num_inputs();
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    const int n = in_width(j);
    for (int i = 0; i < n; ++i) *y++ = u[i];
  }
}

BlockType MuxType() {
  BlockType t;
  t.name = "Mux";
  t.category = "Routing and structure";
  t.summary = "Concatenates its inputs into one vector.";
  t.doc =
      "y = [u1; u2; ...; un]: the width of y is the sum of the input widths. Inherited "
      "sample time; direct feedthrough.";
  t.reference = "Simulink Mux";
  t.params = {{"inputs", ParamKind::kScalar, "2", "number of inputs"}};
  t.inputs = {{"u1..un", "the parts, any widths"}};
  t.outputs = {{"y", "the concatenation"}};
  t.create = [](const Params& p) { return std::make_unique<Mux>(p); };
  return t;
}

}  // namespace twinblocks::blocks
