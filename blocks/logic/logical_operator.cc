#include "blocks/logic/logical_operator.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

LogicalOperator::LogicalOperator(const Params& params) {
  const std::string& op = params.Word("op");
  if (op == "AND") op_ = Op::kAnd;
  if (op == "OR") op_ = Op::kOr;
  if (op == "NAND") op_ = Op::kNand;
  if (op == "NOR") op_ = Op::kNor;
  if (op == "XOR") op_ = Op::kXor;
  if (op == "NOT") op_ = Op::kNot;
  // NOT has one input whatever `inputs` says (its default is 2, for the other operators).
  const int n = op_ == Op::kNot ? 1 : params.Integer("inputs");
  if (n < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(n, "inputs");
  for (int j = 0; j < n; ++j) DeclareInput(internal::NumberedPort("u", j));
  DeclareOutput("y");
}

void LogicalOperator::DoConfigure(const std::vector<int>& input_widths) {
  reduce_ = op_ != Op::kNot && input_widths.size() == 1;
  SetOutputWidth(0, reduce_ ? 1 : CommonWidth(input_widths));
  strides_.clear();
  for (int w : input_widths) strides_.push_back(internal::StrideOf(w));
}

bool LogicalOperator::Apply(int count, int total) const {
  switch (op_) {
    case Op::kAnd:
      return count == total;
    case Op::kOr:
      return count > 0;
    case Op::kNand:
      return count != total;
    case Op::kNor:
      return count == 0;
    case Op::kXor:
      return count % 2 == 1;
    case Op::kNot:
      return count == 0;
  }
  return false;
}

void LogicalOperator::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  if (reduce_) {
    const double* u = in(c, 0);
    const int n = in_width(0);
    int count = 0;
    for (int i = 0; i < n; ++i) count += u[i] != 0.0;
    y[0] = Apply(count, n) ? 1.0 : 0.0;
    return;
  }
  const int n = out_width(0);
  const int m = num_inputs();
  if (n == 1) {
    // Scalars (a closure controller's OR and NOT): no strides.
    int count = 0;
    for (int j = 0; j < m; ++j) count += in(c, j)[0] != 0.0;
    y[0] = Apply(count, m) ? 1.0 : 0.0;
    return;
  }
  // Each element's count of true inputs, in y, input by input; then the operator on every
  // count, its test once per block rather than once per element.
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    const int stride = strides_[j];
    for (int i = 0; i < n; ++i) y[i] += u[i * stride] != 0.0 ? 1.0 : 0.0;
  }
  const double total = m;
  switch (op_) {
    case Op::kAnd:
      for (int i = 0; i < n; ++i) y[i] = y[i] == total ? 1.0 : 0.0;
      break;
    case Op::kOr:
      for (int i = 0; i < n; ++i) y[i] = y[i] > 0.0 ? 1.0 : 0.0;
      break;
    case Op::kNand:
      for (int i = 0; i < n; ++i) y[i] = y[i] != total ? 1.0 : 0.0;
      break;
    case Op::kNor:
    case Op::kNot:
      for (int i = 0; i < n; ++i) y[i] = y[i] == 0.0 ? 1.0 : 0.0;
      break;
    case Op::kXor:
      for (int i = 0; i < n; ++i) y[i] = Apply(static_cast<int>(y[i]), m) ? 1.0 : 0.0;
      break;
  }
}

BlockType LogicalOperatorType() {
  BlockType t;
  t.name = "LogicalOperator";
  t.category = "Discrete and logic";
  t.summary = "Boolean AND, OR, NAND, NOR, XOR, NOT of its inputs: y is 1 or 0.";
  t.doc =
      "Inputs are true where non-zero. y_i = op(u1_i, ..., un_i), element-wise with scalar "
      "expansion; XOR is true for an odd number of true inputs. NOT has exactly one input "
      "(`inputs` is ignored) and negates each element. With inputs = 1 (other operators), "
      "the elements of u1 are combined into a scalar. No zero crossings (its inputs come "
      "from blocks that locate their own). Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Logical Operator";
  t.params = {
      {"op", ParamKind::kWord, "AND", "the operator", {"AND", "OR", "NAND", "NOR", "XOR", "NOT"}},
      {"inputs", ParamKind::kScalar, "2", "number of inputs (NOT: always 1)"}};
  t.inputs = {{"u1..un", "operands, true when non-zero"}};
  t.outputs = {{"y", "1 or 0"}};
  t.create = [](const Params& p) { return std::make_unique<LogicalOperator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
