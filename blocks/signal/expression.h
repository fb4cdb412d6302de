#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/math_expression.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = expr(u1..un, t, model variables), element-wise over the inputs with scalar
/// expansion. Each simulator gets its own parser (a workspace); the constructor parses the
/// expression once so that a bad one is an error at compile.
class Expression final : public Block {
 public:
  /// @throws BlockError naming `expr` when the expression does not parse or uses an unknown
  /// name; naming `inputs` unless inputs >= 1.
  explicit Expression(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  /// Binds u1..un (and u when there is one input) to `u`, t to `t`, the model variables as
  /// constants, then parses. @throws ExpressionError
  void Bind(MathExpression& expr, double* u, double* t) const;

  std::string text_;
  int num_in_ = 1;
  std::vector<std::pair<std::string, double>> variables_;
  std::vector<int> strides_;  ///< per input, 0 for an expanded scalar
};

/// The registry entry of Expression.
BlockType ExpressionType();

}  // namespace twinblocks::blocks
