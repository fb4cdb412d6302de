#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/discrete/detail/integration_method.h"
#include "blocks/param.h"
#include "blocks/signal/detail/pid_output_limits.h"

namespace twinblocks::blocks {

/// Discrete parallel PID, element-wise. With the defaults (forward-Euler integral, unfiltered
/// backward-difference derivative, no limits):
///   u[k] = Kp e[k] + I[k] + Kd (e[k] - e[k-1]) / Ts,  I[k+1] = I[k] + Ki Ts e[k],
/// with I[0] = 0, e[-1] = 0. The integral and the derivative filter may use forward Euler,
/// backward Euler or trapezoidal integration; the output may be saturated, with clamping or
/// back-calculation anti-windup; DiscretePID2DOF takes r and y with set-point weights b, c.
///
/// Storage: discrete states [integrator state (width)][derivative state (width): the last
/// derivative input without a filter, the filter's integrator state with one].
class DiscretePid final : public Block {
 public:
  /// @param two_dof inputs r and y with set-point weights b and c (DiscretePID2DOF) instead
  /// of e.
  /// @throws BlockError for a bad Ts/offset, N, method or limits (PidOutputLimits::Read).
  DiscretePid(const Params& params, bool two_dof);

 protected:
  /// @throws BlockError when r and y disagree in width (DiscretePID2DOF).
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  /// The inputs of the P, I and D terms of one element.
  struct TermInputs {
    double p, i, d;
  };
  /// One element at one hit: the output and what the update adds to the states.
  struct Step {
    double u;         ///< the output, saturated
    double integral;  ///< the integrator state's increment, Ts times its input
    double d;         ///< the derivative term
  };
  /// `direct_only`: read only the inputs that are direct feedthrough (in the outputs, where
  /// the others may not be computed yet); the rest count as 0, which their gains ignore.
  TermInputs ReadTermInputs(const Context& c, int i, bool direct_only) const;
  Step Evaluate(const Context& c, int i, const TermInputs& in) const;

  double kp_, ki_, kd_;
  double n_;                  ///< derivative filter coefficient, rad/s; inf: no filter
  double b_ = 1.0, c_ = 1.0;  ///< set-point weights of P and D (DiscretePID2DOF)
  internal::IntegrationMethod integrator_, filter_;
  internal::PidOutputLimits limits_;
  bool two_dof_, filtered_ = false;
  bool feedthrough_ = true, r_feedthrough_ = true;
  int width_ = 1;
  int stride0_ = 1, stride1_ = 1;  ///< of e, or of r and y
};

/// The registry entry of DiscretePID.
BlockType DiscretePidType();

/// The paragraph on methods, limits and anti-windup that the docs of DiscretePID and
/// DiscretePID2DOF share.
std::string DiscretePidOptionsDoc();

}  // namespace twinblocks::blocks
