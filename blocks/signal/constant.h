#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = value, computed once (constant sample time). A matrix value is output row by row.
class Constant final : public Block {
 public:
  /// @throws BlockError when `value` is empty.
  explicit Constant(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<double> value_;  ///< (numel(value)), row-major
};

/// The registry entry of Constant.
BlockType ConstantType();

}  // namespace twinblocks::blocks
