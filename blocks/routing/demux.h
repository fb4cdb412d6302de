#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Splits u evenly into y1..yn.
class Demux final : public Block {
 public:
  /// @throws BlockError unless outputs >= 1.
  explicit Demux(const Params& params);

 protected:
  /// @throws BlockError when the width of u is not a multiple of the number of outputs.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  int part_ = 1;  ///< width of each output
};

/// The registry entry of Demux.
BlockType DemuxType();

}  // namespace twinblocks::blocks
