#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Simulink's Hit Crossing: y = 1 at the major step where u reaches offset in the chosen
/// direction (the solver lands there on a zero crossing of u - offset), 0 elsewhere,
/// element-wise.
///
/// dwork (width): the side of the offset u was on at the last major step (-1, 0, +1). Modes
/// (width): the output (0 or 1), chosen at major steps and held inside the solver's steps. Zero
/// crossings (width): u - offset.
class HitCrossing final : public Block {
 public:
  enum class Direction { kRising, kFalling, kEither };

  /// @throws BlockError for a non-finite offset.
  explicit HitCrossing(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Direction direction_;
  Eigen::VectorXd offset_param_;
  std::vector<double> offset_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of HitCrossing.
BlockType HitCrossingType();

}  // namespace twinblocks::blocks
