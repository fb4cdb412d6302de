#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "blocks/signal/detail/pid_output_limits.h"

namespace twinblocks::blocks {

/// Continuous parallel PID with a filtered derivative, element-wise:
///   v = Kp p + Ki xi + Kd N (d - f),  xi' = i,  f' = N (d - f),  u = min(max(v, lower), upper),
/// where p = i = d = e (PID), or p = b r - y, i = r - y, d = c r - y (PID2DOF: set-point
/// weighting). Anti-windup changes xi' while u is held at a limit: clamping sets it to 0 while
/// Ki i pushes v further past the limit; back-calculation adds (Kb / Ki) (u - v).
///
/// Storage: continuous states [xi (width) if Ki != 0][f (width) if Kd != 0], zero at the
/// start; with finite limits, modes [region per element: -1 at lower, 0 free, +1 at upper]
/// [clamped per element, if clamping] chosen at major steps and held inside solver steps, and
/// zero crossings [v - upper, v - lower, (clamping) Ki i while past a limit] per element.
class Pid final : public Block {
 public:
  /// @param two_dof inputs r and y with set-point weights b and c (PID2DOF) instead of e.
  /// @throws BlockError unless N > 0 when Kd != 0, or for bad limits (PidOutputLimits::Read).
  Pid(const Params& params, bool two_dof);

 protected:
  /// @throws BlockError when r and y disagree in width (PID2DOF).
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  /// The inputs of the P, I and D terms of element `i`.
  struct TermInputs {
    double p, i, d;
  };
  /// `direct_only`: read only the inputs that are direct feedthrough (in the outputs, where
  /// the others may not be computed yet); the rest count as 0, which their gains ignore.
  TermInputs ReadTermInputs(const Context& c, int i, bool direct_only) const;
  /// v, the output before saturation, of element `i`.
  double Unsaturated(const Context& c, int i, const TermInputs& in) const;

  double kp_, ki_, kd_, n_;   ///< gains; n_ is the derivative filter coefficient, rad/s
  double b_ = 1.0, c_ = 1.0;  ///< set-point weights of P and D (PID2DOF)
  internal::PidOutputLimits limits_;
  bool two_dof_;
  bool has_i_ = false, has_d_ = false, feedthrough_ = false, r_feedthrough_ = false;
  bool limited_ = false, clamping_ = false;
  int width_ = 1;
  int stride0_ = 1, stride1_ = 1;  ///< of e, or of r and y
};

/// The registry entry of PID.
BlockType PidType();

/// The paragraph on output limits and anti-windup that the docs of PID and PID2DOF share.
std::string PidLimitsDoc();

}  // namespace twinblocks::blocks
