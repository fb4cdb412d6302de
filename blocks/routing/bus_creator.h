#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = [u1; u2; ...; un] carrying a bus layout: the inputs' names, widths and shapes, so that
/// a BusSelector downstream picks elements by name.
class BusCreator final : public Block {
 public:
  /// @throws BlockError when `names` is empty, holds a name that is not one, or one twice.
  explicit BusCreator(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  std::vector<std::string> names_;
};

/// The registry entry of BusCreator.
BlockType BusCreatorType();

}  // namespace twinblocks::blocks
