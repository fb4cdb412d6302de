#pragma once

// The time grid of the fixed-step solvers (ode1 ... ode5, ode1be, ros2).

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers::internal {

/// Where a fixed-step solver's steps end. They land on t_base + k h, k counted from the last
/// time landed on exactly (a restart, or a t_stop reached by a shortened step), not on t + h:
/// so rounding does not accumulate over a million steps, and a run's times stay those of the
/// grid whatever sample hits fall in between.
class FixedStepGrid {
 public:
  /// A remainder up to (1 + kLandingTolerance) h is one step that lands on t_stop exactly,
  /// rather than a full step and a sliver.
  static constexpr double kLandingTolerance = 1e-9;

  /// One step from t toward t_stop.
  struct Step {
    double h;      ///< its size, s
    double t_new;  ///< where it ends
    bool lands;    ///< it ends on t_stop
  };

  /// The solver (re)starts at t.
  void Restart(double t) {
    base_ = t;
    steps_ = 0;
  }
  /// The next step of size h_fixed from t, shortened to land on t_stop when that is near.
  Step Plan(double t, double t_stop, double h_fixed) const {
    const double remaining = t_stop - t;
    if (remaining <= h_fixed * (1.0 + kLandingTolerance)) return {remaining, t_stop, true};
    return {h_fixed, base_ + static_cast<double>(steps_ + 1) * h_fixed, false};
  }
  /// The planned step was taken.
  void Taken(const Step& step) {
    if (step.lands) {
      Restart(step.t_new);
    } else {
      ++steps_;
    }
  }

  /// Two numbers in a solver's saved memory.
  static constexpr int kMemorySize = 2;
  void Save(MemoryWriter& out) const { out << base_ << static_cast<double>(steps_); }
  void Restore(MemoryReader& in) {
    base_ = in.Next();
    steps_ = static_cast<long>(in.Next());
  }

 private:
  double base_ = 0.0;  // s, the last time landed on exactly
  long steps_ = 0;     // full steps taken since base_
};

}  // namespace twinblocks::solvers::internal
