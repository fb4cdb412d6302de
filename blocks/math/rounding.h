#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = floor(u), ceil(u), round(u) or fix(u) element-wise. At a continuous rate each element's
/// whole number is chosen at major steps and held inside solver steps, and the ends of the
/// interval of u that rounds to it are zero crossings: the solver lands on every jump.
class Rounding final : public Block {
 public:
  enum class Function { kFloor, kCeil, kRound, kFix };

  explicit Rounding(const Params& params);

  /// The function's value at `u` (what a major step holds).
  static double Round(Function f, double u);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// The interval of u that rounds to `k`: [*lo, *hi] with the ends that belong to it as the
  /// function says (floor: [k, k + 1)).
  void Interval(double k, double* lo, double* hi) const;

  Function function_ = Function::kFloor;
};

/// The registry entry of Rounding.
BlockType RoundingType();

}  // namespace twinblocks::blocks
