#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = |u| element-wise. The sign of u is a mode per element, held inside solver steps;
/// its zero-crossing function is u.
class Abs final : public Block {
 public:
  explicit Abs(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;
};

/// The registry entry of Abs.
BlockType AbsType();

}  // namespace twinblocks::blocks
