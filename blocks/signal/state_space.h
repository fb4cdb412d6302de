#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// x' = A x + B u, y = C x + D u, x(t0) = x0. Sizes: A (n x n), B (n x m), C (p x n),
/// D (p x m); u has width m and y width p.
class StateSpace final : public Block {
 public:
  /// @throws BlockError naming the matrix whose size does not fit.
  explicit StateSpace(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;

 private:
  Eigen::MatrixXd a_, b_, c_, d_;
  Eigen::VectorXd x0_;  ///< (n)
  bool feedthrough_ = false;
};

/// The registry entry of StateSpace.
BlockType StateSpaceType();

}  // namespace twinblocks::blocks
