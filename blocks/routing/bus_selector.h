#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Picks elements of a bus by name: y1..yk, one per name in `signals`, or one bus y of them.
class BusSelector final : public Block {
 public:
  /// @throws BlockError when `signals` is empty, holds a name that is not one, or one twice.
  explicit BusSelector(const Params& params);

 protected:
  /// @throws BlockError when u is no bus, or when it has no element of a name (with the
  /// nearest name and the bus's names).
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  /// A run of the bus copied to an output.
  struct Slice {
    int from = 0;  ///< offset in u
    int width = 0;
    int output = 0;
    int to = 0;  ///< offset in the output
  };

  std::vector<std::string> signals_;
  bool output_as_bus_ = false;
  std::vector<Slice> slices_;
};

/// The registry entry of BusSelector.
BlockType BusSelectorType();

}  // namespace twinblocks::blocks
