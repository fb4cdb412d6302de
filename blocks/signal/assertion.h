#pragma once

#include <string>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Checks at every major step that no element of its input is zero; when one is, the run
/// fails there (Block::RequestStop as a failure), its row recorded, the message naming the
/// block, the element and the time.
class Assertion final : public Block {
 public:
  explicit Assertion(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
  std::string DoStopReason(const Context& c) const override;

 private:
  bool enabled_ = true;
};

/// The registry entry of Assertion.
BlockType AssertionType();

}  // namespace twinblocks::blocks
