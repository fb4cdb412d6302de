#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = before for t < time, after for t >= time. The jump is a breakpoint: solvers land on
/// `time` exactly, and the major step there already outputs `after`. Minor steps use the
/// mode chosen at the last major step, so a solver stage at `time` still sees `before`.
class Step final : public Block {
 public:
  /// @throws BlockError when `before` and `after` have different widths.
  explicit Step(const Params& params);

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  double time_;                 ///< s
  std::vector<double> before_;  ///< (width)
  std::vector<double> after_;   ///< (width)
};

/// The registry entry of Step.
BlockType StepType();

}  // namespace twinblocks::blocks
