#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = f(u) (or f(u1, u2)) element-wise: exponentials, logarithms, powers, remainders.
class MathFunction final : public Block {
 public:
  enum class Function {
    kExp,
    kLog,
    kPow10,
    kPow2,
    kLog10,
    kMagnitude2,
    kSquare,
    kSqrt,
    kPow,
    kReciprocal,
    kHypot,
    kRem,
    kMod
  };

  explicit MathFunction(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  /// @throws std::runtime_error at a major step where an input is outside the function's
  /// domain (log of -1).
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  bool binary() const { return num_inputs() == 2; }

  Function function_ = Function::kExp;
  const char* name_ = "exp";
  int s1_ = 1, s2_ = 1;  ///< strides of two inputs: 0 for an expanded scalar
};

/// The registry entry of MathFunction.
BlockType MathFunctionType();

}  // namespace twinblocks::blocks
