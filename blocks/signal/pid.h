#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Continuous parallel PID with a filtered derivative:
///   u = Kp e + Ki xi + Kd N (e - f),  xi' = e,  f' = N (e - f),
/// element-wise over e. States: [xi (width) if Ki != 0][f (width) if Kd != 0], zero at start.
class Pid final : public Block {
 public:
  /// @throws BlockError unless N > 0 when Kd != 0.
  explicit Pid(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;

 private:
  double kp_, ki_, kd_, n_;  ///< gains; n_ is the derivative filter coefficient, rad/s
  bool has_i_ = false, has_d_ = false, feedthrough_ = false;
  int width_ = 1;
};

/// The registry entry of PID.
BlockType PidType();

}  // namespace twinblocks::blocks
