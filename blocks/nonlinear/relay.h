#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Simulink's Relay: on_value once u rises above on_switch_point, off_value once it falls
/// below off_switch_point (on >= off: hysteresis between them), element-wise.
///
/// Modes (width): 1 on, 0 off, chosen at major steps. Zero crossings (2 x width): u - on and
/// u - off.
class Relay final : public Block {
 public:
  /// @throws BlockError when on_switch_point < off_switch_point, a parameter is NaN (or an
  ///   output value is not finite), or parameters of disagreeing widths.
  explicit Relay(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd on_param_, off_param_, on_value_param_, off_value_param_;
  std::vector<double> on_, off_, on_value_, off_value_;  ///< (width) each
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of Relay.
BlockType RelayType();

}  // namespace twinblocks::blocks
