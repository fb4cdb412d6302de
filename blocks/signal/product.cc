#include "blocks/signal/product.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Product::Product(const Params& params) {
  for (bool divide : internal::ParseOperatorList(params.String("ops"), "ops", '*', '/')) {
    divide_.push_back(divide ? 1 : 0);
    multiplies_only_ = multiplies_only_ && !divide;
  }
  DeclareOperands(static_cast<int>(divide_.size()));
}

void Product::DoConfigure(const std::vector<int>& input_widths) { ConfigureOperands(input_widths); }

void Product::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int m = num_inputs();
  if (m == 1) {
    const double* u = in(c, 0);
    const int n = in_width(0);
    double acc = 1.0;
    for (int i = 0; i < n; ++i) acc *= u[i];
    y[0] = divide_[0] ? 1.0 / acc : acc;
    return;
  }
  const int n = out_width(0);
  if (n == 1) {
    // Scalars (a detector's product of its delayed samples): one running product.
    double acc = 1.0;
    if (multiplies_only_) {
      for (int j = 0; j < m; ++j) acc *= in(c, j)[0];
    } else {
      for (int j = 0; j < m; ++j) acc = divide_[j] ? acc / in(c, j)[0] : acc * in(c, j)[0];
    }
    y[0] = acc;
    return;
  }
  for (int i = 0; i < n; ++i) y[i] = 1.0;
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    const int st = strides_[j];
    if (divide_[j]) {
      for (int i = 0; i < n; ++i) y[i] /= u[i * st];
    } else {
      for (int i = 0; i < n; ++i) y[i] *= u[i * st];
    }
  }
}

BlockType ProductType() {
  BlockType t;
  t.name = "Product";
  t.category = "Math and continuous";
  t.summary = "Multiplies and divides its inputs element-wise.";
  t.doc =
      "y = 1 (op_1 u1) (op_2 u2) ... with one input per character of `ops`: '*' multiplies "
      "by the input, '/' divides by it (so \"*/\" gives u1 / u2 and \"/\" alone gives 1/u). "
      "Element-wise: inputs have equal widths or are scalars, which expand. With a single "
      "input, its elements are multiplied together: y = prod_i u1_i, or 1 / prod_i u1_i for "
      "'/'. Division by zero follows IEEE (inf or NaN). Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Product (element-wise)";
  t.params = {{"ops", ParamKind::kString, "**", "one '*' or '/' per input"}};
  t.inputs = {{"u1..un", "the factors, equal widths or scalars"}};
  t.outputs = {{"y", "the product"}};
  t.create = [](const Params& p) { return std::make_unique<Product>(p); };
  return t;
}

}  // namespace twinblocks::blocks
