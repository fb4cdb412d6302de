#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = f(u) element-wise for a trigonometric or hyperbolic f; atan2 takes two inputs, sincos
/// gives two outputs.
class TrigonometricFunction final : public Block {
 public:
  enum class Function {
    kSin,
    kCos,
    kTan,
    kAsin,
    kAcos,
    kAtan,
    kAtan2,
    kSinh,
    kCosh,
    kTanh,
    kAsinh,
    kAcosh,
    kAtanh,
    kSincos
  };

  explicit TrigonometricFunction(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  /// @throws std::runtime_error at a major step where an input is outside the function's
  /// domain (asin of 2).
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  Function function_ = Function::kSin;
  const char* name_ = "sin";
  int s1_ = 1, s2_ = 1;  ///< atan2's strides: 0 for an expanded scalar
};

/// The registry entry of TrigonometricFunction.
BlockType TrigonometricFunctionType();

}  // namespace twinblocks::blocks
