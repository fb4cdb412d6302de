#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A cycloidal point-to-point joint trajectory (Boschetti & Sinico 2024, "Designing Digital Twins
/// of Robots Using Simscape Multibody", eq. 23) with its analytic velocity and acceleration, so
/// that inverse-dynamics control can feed exact qd and qdd instead of differentiating q
/// numerically. The profile starts and ends with zero velocity and zero acceleration, so the
/// required torque has no jumps; t0 and t0 + T are still breakpoints because the jerk jumps there
/// and a solver should not step across them.
class Trajectory final : public Block {
 public:
  /// @throws BlockError when q0 and qr disagree in width, or T is not positive.
  explicit Trajectory(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;

 private:
  std::vector<double> q0_, qr_;  ///< (width) start and rise (rad or m)
  double t0_;                    ///< s, the start of the motion
  double T_;                     ///< s, its duration
};

/// The registry entry of Trajectory.
BlockType TrajectoryType();

}  // namespace twinblocks::blocks
