#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = the inputs joined: one after the other as a vector, or as matrices stacked along a
/// dimension (1: on top of each other, 2: side by side).
class Concatenate final : public Block {
 public:
  /// @throws BlockError for fewer than one input or a dimension other than 1 or 2.
  explicit Concatenate(const Params& params);

 protected:
  /// @throws BlockError when the inputs' dimensions do not join (a matrix in vector mode,
  /// different column counts stacked vertically, different row counts side by side).
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  bool side_by_side_ = false;  ///< multidimensional along dimension 2
  bool multidimensional_ = false;
  int rows_ = 0;              ///< of y, side by side
  std::vector<int> in_cols_;  ///< per input, side by side
};

/// The registry entry of Concatenate.
BlockType ConcatenateType();

}  // namespace twinblocks::blocks
