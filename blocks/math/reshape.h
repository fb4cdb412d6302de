#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u with other dimensions: a plain vector, a column, a row, or rows x cols. The values
/// keep their order (row by row), so only the shape changes.
class Reshape final : public Block {
 public:
  enum class Output { kVector, kColumn, kRow, kCustom };

  /// @throws BlockError when `dimensions` are not two whole numbers >= 1.
  explicit Reshape(const Params& params);

 protected:
  /// @throws BlockError when `dimensions` do not hold the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  Output output_ = Output::kVector;
  int rows_ = 1, cols_ = 1;  ///< `dimensions`, for kCustom
};

/// The registry entry of Reshape.
BlockType ReshapeType();

}  // namespace twinblocks::blocks
