#include "blocks/routing/selector.h"

#include <cmath>
#include <memory>
#include <string>

#include "common/format_value.h"

namespace twinblocks::blocks {

Selector::Selector(const Params& params) {
  const Eigen::VectorXd idx = params.Vector("indices");
  if (idx.size() == 0) throw BlockError("parameter 'indices' is empty", "indices");
  for (int i = 0; i < idx.size(); ++i) {
    const double v = idx(i);
    if (!(v >= 0.0) || v != std::floor(v) || v > 1e9) {
      throw BlockError(
          "parameter 'indices' must hold whole numbers >= 0 (0-based), got " + FormatValue(v),
          "indices");
    }
    indices_.push_back(static_cast<int>(v));
  }
  DeclareInput("u");
  DeclareOutput("y", static_cast<int>(indices_.size()));
  // Picked elements are a plain vector, even all of a matrix or a bus in another order.
  SetOutputShape(0, SignalShape::Vector());
}

void Selector::DoConfigure(const std::vector<int>& input_widths) {
  const int w = input_widths[0];
  for (int k : indices_) {
    if (k >= w) {
      throw BlockError("index " + std::to_string(k) +
                           " of 'indices' is out of range: input 'u' "
                           "has width " +
                           std::to_string(w) + " (indices are 0-based)",
                       "indices", "u");
    }
  }
}

void Selector::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const int n = static_cast<int>(indices_.size());
  const int* idx = indices_.data();
  for (int i = 0; i < n; ++i) y[i] = u[idx[i]];
}

BlockType SelectorType() {
  BlockType t;
  t.name = "Selector";
  t.category = "Routing and structure";
  t.summary = "Picks elements of a vector by index.";
  t.doc =
      "y_i = u[indices_i], with 0-based indices (an index may repeat). The width of y is the "
      "number of indices; an index past the width of u is a compile error. Inherited sample "
      "time; direct feedthrough.";
  t.reference = "Simulink Selector (index vector, zero-based)";
  t.params = {{"indices", ParamKind::kVector, "", "0-based indices into u", {}, true}};
  t.inputs = {{"u", "the vector to select from"}};
  t.outputs = {{"y", "the selected elements, width numel(indices)"}};
  t.create = [](const Params& p) { return std::make_unique<Selector>(p); };
  return t;
}

}  // namespace twinblocks::blocks
