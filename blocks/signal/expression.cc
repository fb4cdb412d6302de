#include "blocks/signal/expression.h"

#include <algorithm>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

/// One simulator's parser and the doubles it reads.
struct ExpressionWorkspace final : BlockWorkspace {
  explicit ExpressionWorkspace(int n) : u(n, 0.0) {}
  std::vector<double> u;  ///< current element of each input; sized once, never moved
  double t = 0.0;         ///< s
  MathExpression expr;

  // The parser stays bound to this workspace's own u and t; only their values travel.
  void CopyFrom(const BlockWorkspace& other) override {
    const auto& o = static_cast<const ExpressionWorkspace&>(other);
    std::copy(o.u.begin(), o.u.end(), u.begin());
    t = o.t;
  }
};

}  // namespace

Expression::Expression(const Params& params)
    : text_(params.String("expr")),
      num_in_(params.Integer("inputs")),
      variables_(params.variables()) {
  if (num_in_ < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(num_in_, "inputs");
  // Parse once now, on scratch storage, so that errors surface at compile.
  std::vector<double> u(num_in_, 0.0);
  double t = 0.0;
  MathExpression expr;
  try {
    Bind(expr, u.data(), &t);
  } catch (const ExpressionError& e) {
    throw BlockError(std::string("parameter 'expr': ") + e.what(), "expr");
  }
  for (int j = 0; j < num_in_; ++j) DeclareInput(internal::NumberedPort("u", j));
  DeclareOutput("y");
  const std::vector<std::string> used = expr.UsedVariables();
  if (std::find(used.begin(), used.end(), "t") != used.end()) DeclareTimeDependence();
}

void Expression::Bind(MathExpression& expr, double* u, double* t) const {
  for (int j = 0; j < num_in_; ++j) expr.DefineVariable(internal::NumberedPort("u", j), &u[j]);
  if (num_in_ == 1) expr.DefineVariable("u", &u[0]);
  expr.DefineVariable("t", t);
  for (const auto& [name, value] : variables_) {
    // The block's own names shadow model variables of the same name.
    if (name == "t" || name == "u" || MathExpression::IsReservedName(name)) continue;
    bool is_input = false;
    for (int j = 0; j < num_in_; ++j) is_input |= name == internal::NumberedPort("u", j);
    if (!is_input) expr.DefineConstant(name, value);
  }
  expr.SetExpression(text_);
}

void Expression::DoConfigure(const std::vector<int>& input_widths) {
  SetOutputWidth(0, CommonWidth(input_widths));
  strides_.clear();
  for (int w : input_widths) strides_.push_back(internal::StrideOf(w));
}

std::unique_ptr<BlockWorkspace> Expression::DoMakeWorkspace() const {
  auto ws = std::make_unique<ExpressionWorkspace>(num_in_);
  Bind(ws->expr, ws->u.data(), &ws->t);
  return ws;
}

void Expression::DoCalcOutputs(Context& c, int stage) const {
  auto& ws = workspace<ExpressionWorkspace>(c);
  double* y = out(c, 0);
  double* u = ws.u.data();
  const int n = out_width(0);
  ws.t = c.t;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < num_in_; ++j) u[j] = in(c, j)[i * strides_[j]];
    y[i] = ws.expr.Evaluate();
  }
}

BlockType ExpressionType() {
  BlockType t;
  t.name = "Expression";
  t.category = "Math and continuous";
  t.summary = "Evaluates a formula of the inputs, time and model variables.";
  t.doc =
      "y = expr, where expr may use u1..un (and u for u1 when inputs = 1), the time t in s, "
      "the model's scalar variables and the functions and constants of the model-file "
      "language (sin, cos, sqrt, exp, atan2, min, max, pi, ...). Element-wise: inputs have "
      "equal widths or are scalars, which expand, and y_i evaluates expr with the i-th "
      "elements. The expression is parsed when the model is compiled, so a syntax error or "
      "an unknown name is a compile error. No zero crossings: a discontinuous expr (abs, "
      "min, sign) is not located by variable-step solvers. Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Fcn / MATLAB Fcn (muParser syntax)";
  t.params = {{"expr", ParamKind::kString, "", "the formula, e.g. u1*sin(t) + k", {}, true},
              {"inputs", ParamKind::kScalar, "1", "number of inputs"}};
  t.inputs = {{"u1..un", "operands, equal widths or scalars"}};
  t.outputs = {{"y", "the value of expr"}};
  t.create = [](const Params& p) { return std::make_unique<Expression>(p); };
  return t;
}

}  // namespace twinblocks::blocks
