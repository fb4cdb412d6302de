#pragma once

#include <string>
#include <vector>

#include "blocks/param.h"

namespace twinblocks::blocks::internal {

/// The output saturation and anti-windup shared by the PID blocks (PID, PID2DOF, DiscretePID,
/// DiscretePID2DOF): u = min(max(v, lower), upper) of the unsaturated sum v, and what keeps
/// the integrator from winding up while u is held at a limit (Simulink's PID Controller,
/// "Output saturation" with "Anti-windup method"):
/// - clamping: the integrator's input is 0 while v is past a limit and that input pushes
///   further past it (conditional integration);
/// - back-calculation: Kb (u - v) is added to the integrator's input.
struct PidOutputLimits {
  enum class AntiWindup { kNone, kClamping, kBackCalculation };

  double lower;  ///< -inf: none
  double upper;  ///< +inf: none
  AntiWindup anti_windup = AntiWindup::kNone;
  double kb = 0.0;  ///< back-calculation gain, 1/s

  /// True when a limit is finite: u may differ from v.
  bool limited() const;
  double Clamp(double v) const { return v > upper ? upper : (v < lower ? lower : v); }

  /// The anti_windup parameter's words, in the order the docs list them.
  static std::vector<std::string> Words() { return {"none", "clamping", "back-calculation"}; }

  /// Reads lower, upper, anti_windup and Kb. `has_integral`: the controller integrates (its
  /// Ki is nonzero).
  /// @throws BlockError when lower > upper, Kb is negative or not finite, or anti_windup is
  /// asked for without a finite limit or without an integral term.
  static PidOutputLimits Read(const Params& params, bool has_integral);

  /// The parameter specs: upper, lower, anti_windup, Kb.
  static std::vector<ParamSpec> Specs();
};

}  // namespace twinblocks::blocks::internal
