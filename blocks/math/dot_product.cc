#include "blocks/math/dot_product.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DotProduct::DotProduct(const Params& params) {
  DeclareInput("u1");
  DeclareInput("u2");
  DeclareOutput("y", 1);
}

void DotProduct::DoConfigure(const std::vector<int>& input_widths) {
  for (int j = 0; j < 2; ++j) {
    const SignalShape& s = in_shape(j);
    if (s.is_matrix() && s.rows > 1) {
      throw BlockError("input '" + input_port(j).name + "' is a " + s.Describe() +
                           "; the dot product takes vectors",
                       {}, input_port(j).name);
    }
  }
  n_ = CommonWidth(input_widths);
  s1_ = internal::StrideOf(input_widths[0]);
  s2_ = internal::StrideOf(input_widths[1]);
}

void DotProduct::DoCalcOutputs(Context& c, int stage) const {
  const double* a = in(c, 0);
  const double* b = in(c, 1);
  double acc = 0.0;
  for (int i = 0; i < n_; ++i) acc += a[i * s1_] * b[i * s2_];
  out(c, 0)[0] = acc;
}

BlockType DotProductType() {
  BlockType t;
  t.name = "DotProduct";
  t.category = "Matrix operations";
  t.summary = "Dot product of two vectors.";
  t.doc =
      "y = sum_i u1_i u2_i, a scalar (the power of a force on a velocity, the projection of a "
      "vector on an axis). The inputs have equal widths, or one is a scalar that expands "
      "(y = u1 sum(u2)); vectors may be plain or 1 x n rows, a matrix is refused. Inherited "
      "sample time; direct feedthrough.";
  t.reference = "Simulink Dot Product (real inputs: sum(conj(u1) .* u2))";
  t.inputs = {{"u1", "vector"}, {"u2", "vector of the same width"}};
  t.outputs = {{"y", "the dot product, width 1"}};
  t.create = [](const Params& p) { return std::make_unique<DotProduct>(p); };
  return t;
}

}  // namespace twinblocks::blocks
