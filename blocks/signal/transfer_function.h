#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A proper SISO transfer function num(s)/den(s), realized in controllable canonical form
/// with zero initial state:
///   x1' = -a1 x1 - ... - an xn + u,  x(k+1)' = x(k),  y = C x + D u,
/// with den normalized to s^n + a1 s^(n-1) + ... + an, D = b0, C_i = b_i - b0 a_i.
class TransferFunction final : public Block {
 public:
  /// @throws BlockError when den is zero or num has a higher degree than den (improper).
  explicit TransferFunction(const Params& params);

  int order() const { return static_cast<int>(a_.size()); }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;

 private:
  std::vector<double> a_;  ///< (n) a1..an of the monic denominator
  std::vector<double> c_;  ///< (n) output row
  double d_ = 0.0;         ///< feedthrough b0
};

/// The registry entry of TransferFunction.
BlockType TransferFunctionType();

}  // namespace twinblocks::blocks
