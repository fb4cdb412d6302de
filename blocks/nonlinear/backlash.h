#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Simulink's Backlash (play): the output moves only when the input pushes it from one side
/// of a deadband of deadband_width centred on it, element-wise.
///
/// dwork (width): the output of the last major step, y_held. Modes (width): 0 disengaged,
/// +1 engaged pushing up, -1 engaged pushing down, chosen at major steps. Zero crossings
/// (2 x width): u - w/2 - y_held and u + w/2 - y_held, where the input reaches either side
/// of the deadband (engages) or, engaged, comes back to where it last left the output.
class Backlash final : public Block {
 public:
  /// @throws BlockError for a negative or non-finite deadband_width, a non-finite
  ///   initial_output, or parameters of disagreeing widths.
  explicit Backlash(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd width_param_, initial_output_param_;
  std::vector<double> half_width_, initial_output_;  ///< (width) each
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of Backlash.
BlockType BacklashType();

}  // namespace twinblocks::blocks
