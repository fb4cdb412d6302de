#pragma once

#include <memory>
#include <string>

#include "blocks/block.h"
#include "blocks/user/user_block.h"

namespace twinblocks::blocks {

/// The block that runs a user block (blocks/user/user_block.h) in a compiled diagram: it
/// declares what the user block declared, and turns each runtime hook into a call of the
/// user block's with a user::Context over this block's slices of the simulation's Context.
/// The user block sees neither the Context's layout nor the solver features it carries (DAE
/// residuals, demand masks, projections), which is what keeps a block library's binary
/// interface stable while blocks/block.h changes.
class UserBlockAdapter final : public Block {
 public:
  /// @param block the user block, made by its type's create
  /// @throws BlockError (one line) when a declaration is invalid: a port name that is not an
  ///   identifier or is used twice, a width below 1, a negative count, a sample time that is
  ///   not positive and finite, or an offset outside [0, period).
  explicit UserBlockAdapter(std::unique_ptr<user::Block> block);

  const user::Block& user_block() const { return *block_; }
  std::string DescribeContinuousState(int i) const override;

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  class View;

  std::unique_ptr<user::Block> block_;
};

}  // namespace twinblocks::blocks
