#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u1 (*|/) u2 (*|/) ... as matrix products, `/` multiplying by the input's inverse:
/// Simulink's Product block in matrix mode. Inputs are matrices (their shapes), plain vectors
/// (columns, or a row where only that fits on the left of the chain) and scalars (factors).
class MatrixMultiply final : public Block {
 public:
  /// @throws BlockError when `ops` holds anything but '*' and '/' or nothing.
  explicit MatrixMultiply(const Params& params);

 protected:
  /// @throws BlockError when the inputs' dimensions do not chain or an inverted one is not
  /// square.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  /// One matrix of the chain (scalars are folded into `scale` instead).
  struct Factor {
    int input = 0;
    int rows = 0, cols = 0;
    bool invert = false;
  };

  std::vector<char> divide_;     ///< per input: 1 to multiply by its inverse
  std::vector<Factor> factors_;  ///< the matrices, in order
  std::vector<int> scalars_;     ///< inputs of width 1
  int product_size_ = 0;         ///< the largest running product (dwork, twice)
  int square_size_ = 0;          ///< the largest inverted matrix (dwork, twice)
};

/// The registry entry of MatrixMultiply.
BlockType MatrixMultiplyType();

}  // namespace twinblocks::blocks
