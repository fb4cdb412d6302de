#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = [u1; u2; ...; un]: concatenates its inputs.
class Mux final : public Block {
 public:
  /// @throws BlockError unless inputs >= 1.
  explicit Mux(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;
};

/// The registry entry of Mux.
BlockType MuxType();

}  // namespace twinblocks::blocks
