#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = q round(u / q) element-wise (round half away from zero), q the interval.
///
/// dwork (width): the level round(u / q) chosen at the last major step, held inside the
/// solver's steps (a whole number kept as a double: u / q may be far beyond an int). Zero
/// crossings (2 x width): u - q (level + 1/2) and u - q (level - 1/2), the jumps above and
/// below.
class Quantizer final : public Block {
 public:
  /// @throws BlockError unless interval is positive and finite.
  explicit Quantizer(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd interval_param_;
  std::vector<double> interval_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of Quantizer.
BlockType QuantizerType();

}  // namespace twinblocks::blocks
