#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A proper discrete transfer function, element-wise over its input, realized in controllable
/// canonical form with zero initial state:
///   x1[k+1] = u[k] - a1 x1[k] - ... - an xn[k],  x(j+1)[k+1] = xj[k],  y[k] = C x[k] + D u[k],
/// with den normalized to z^n + a1 z^(n-1) + ... + an, D = b0, C_j = b_j - b0 a_j. Both
/// DiscreteTransferFunction (num, den in descending powers of z) and DiscreteFilter (in
/// ascending powers of z^-1) are this block.
///
/// Storage: discrete states (width x n), one row of n per element.
class DiscreteTransferFunction final : public Block {
 public:
  /// How num and den are written.
  enum class Form {
    kPowersOfZ,         ///< descending powers of z: [b0, ..., bm] is b0 z^m + ... + bm
    kPowersOfZInverse,  ///< ascending powers of z^-1: [b0, ..., bm] is b0 + ... + bm z^-m
  };

  /// @throws BlockError when den's leading coefficient is 0, the function is improper (Form
  /// kPowersOfZ), or for a bad Ts/offset.
  DiscreteTransferFunction(const Params& params, Form form);

  int order() const { return static_cast<int>(a_.size()); }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  std::vector<double> a_;  ///< (n) a1..an of the monic denominator
  std::vector<double> c_;  ///< (n) output row
  double d_ = 0.0;         ///< feedthrough b0
  int width_ = 1;
};

/// The registry entry of DiscreteTransferFunction.
BlockType DiscreteTransferFunctionType();

}  // namespace twinblocks::blocks
