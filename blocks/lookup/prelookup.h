#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/lookup/detail/breakpoints.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Where each element of u falls among the breakpoints: the interval k (0-based) and the
/// fraction f in it (Simulink's Prelookup), for InterpolationUsingPrelookup blocks that share
/// the search.
class Prelookup final : public Block {
 public:
  /// @throws BlockError for breakpoints that are not finite and strictly increasing
  explicit Prelookup(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  lookup::Breakpoints breakpoints_;
  bool clip_ = false;
};

/// The registry entry of Prelookup.
BlockType PrelookupType();

}  // namespace twinblocks::blocks
