#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y_i = u[indices_i] (0-based).
class Selector final : public Block {
 public:
  /// @throws BlockError for no index or a negative or fractional one.
  explicit Selector(const Params& params);

 protected:
  /// @throws BlockError naming `indices` when one is past the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<int> indices_;
};

/// The registry entry of Selector.
BlockType SelectorType();

}  // namespace twinblocks::blocks
