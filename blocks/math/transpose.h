#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u^T: a rows x cols matrix becomes cols x rows; a plain vector (a column) a 1 x n row.
class Transpose final : public Block {
 public:
  explicit Transpose(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  int rows_ = 0;  ///< of u
  int cols_ = 0;
};

/// The registry entry of Transpose.
BlockType TransposeType();

}  // namespace twinblocks::blocks
