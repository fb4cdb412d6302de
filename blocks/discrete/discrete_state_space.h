#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/state_space_matrices.h"

namespace twinblocks::blocks {

/// x[k+1] = A x[k] + B u[k], y[k] = C x[k] + D u[k], x[0] = x0, at each hit. Sizes: A (n x n),
/// B (n x m), C (p x n), D (p x m); u has width m and y width p.
///
/// Storage: discrete states x (n); dwork: A x + B u (n) while the update forms it.
class DiscreteStateSpace final : public Block {
 public:
  /// @throws BlockError naming the matrix whose size does not fit, or for a bad Ts/offset.
  explicit DiscreteStateSpace(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  internal::StateSpaceMatrices m_;
};

/// The registry entry of DiscreteStateSpace.
BlockType DiscreteStateSpaceType();

}  // namespace twinblocks::blocks
