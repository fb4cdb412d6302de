#pragma once

// Where inside an accepted step the zero-crossing functions change sign: shared by the
// variable-step solvers that have a dense output (ode23, ode45, ode23s).

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers::internal {

/// Locates the earliest sign change of ng functions g(t) in a step [t_lo, t_hi] on the step's
/// dense output, with the Illinois method (modified regula falsi, all functions at once,
/// earliest first) until the bracket is no wider than max(4 eps max(|t_lo|, |h|), 1e-14) s.
/// The result is the right end of that bracket, where the crossed functions have already
/// changed sign (or are exactly zero). Allocates only in its constructor.
class ZeroCrossingLocator {
 public:
  static constexpr int kMaxIterations = 200;

  explicit ZeroCrossingLocator(int ng)
      : g_lo_(Eigen::VectorXd::Zero(ng)),
        g_hi_(Eigen::VectorXd::Zero(ng)),
        g_mid_(Eigen::VectorXd::Zero(ng)),
        probe_(ng, 0) {
    crossed_.reserve(ng);
  }

  /// True when some function changed sign from g0 to g1.
  static bool AnyChanged(const Eigen::VectorXd& g0, const Eigen::VectorXd& g1) {
    for (Eigen::Index i = 0; i < g0.size(); ++i) {
      if (SignChanged(g0[i], g1[i])) return true;
    }
    return false;
  }

  /// A restart at time t with functions g0 (and steps of about h): marks the functions whose
  /// sign a probe a hair later along f must decide, as CVODE does for exact zeros, and returns
  /// the probe's time offset from t (0: no probe). Marked are
  /// - functions exactly 0 (a state reset onto its switching surface, a crossing that ended on
  ///   0): they would hide a crossing at the step's end;
  /// - functions whose crossing Locate placed at t: the located end leaves them within
  ///   rounding of 0 on their far side, and a state reset there (a bounce) may have turned
  ///   them back at once. Their crossing back, a rounding error later, cannot be resolved in
  ///   time, and left alone it would hide the next crossing: the step after a bounce would see
  ///   the function on the same side at both ends and lose the ball through the floor.
  /// Up to the probe's time, Locate keeps the marked functions at the probe's sign.
  double MarkProbed(const Eigen::VectorXd& g0, double t, double h) {
    bool any = false;
    for (Eigen::Index i = 0; i < g0.size(); ++i) {
      probe_[i] = g0[i] == 0.0 ? 1 : 0;
      any = any || probe_[i] != 0;
    }
    if (t == t_located_) {
      for (int i : crossed_) probe_[i] = 1;
      any = any || !crossed_.empty();
    }
    if (!any) {
      probe_until_ = std::numeric_limits<double>::quiet_NaN();
      return 0.0;
    }
    const double delta = 100.0 * std::numeric_limits<double>::epsilon() * (std::abs(t) + h);
    probe_until_ = t + delta;
    return delta;
  }

  /// The marked functions take their values at the probe.
  void TakeProbedSigns(const Eigen::VectorXd& g_probe, Eigen::VectorXd* g0) const {
    for (Eigen::Index i = 0; i < g0->size(); ++i) {
      if (probe_[i] != 0) (*g0)[i] = g_probe[i];
    }
  }

  /// Forgets the last located crossing and probe (the solver's state was restored from
  /// elsewhere).
  void ForgetLocated() {
    t_located_ = std::numeric_limits<double>::quiet_NaN();
    probe_until_ = std::numeric_limits<double>::quiet_NaN();
  }

  /// Narrows [t_lo, t_hi] (g0 at t_lo and g1 at t_hi, with some sign change between them)
  /// and returns its right end. `g_at(t, g)` writes the functions at t (from the dense
  /// output) to g. h is the step size, for the tolerance. Afterwards crossed() lists the
  /// functions that changed sign up to the returned time and g_at_end() holds their values
  /// there.
  template <class GAt>
  double Locate(double t_lo, double t_hi, double h, const Eigen::VectorXd& g0,
                const Eigen::VectorXd& g1, GAt&& g_at) {
    const int ng = static_cast<int>(g0.size());
    g_lo_ = g0;
    g_hi_ = g1;
    constexpr double kEps = std::numeric_limits<double>::epsilon();
    const double tol = std::max(4.0 * kEps * std::max(std::abs(t_lo), std::abs(h)), 1e-14);
    // Illinois weights: the value at an end kept twice in a row is halved, so that regula
    // falsi does not stall with one end fixed.
    double w_lo = 1.0;
    double w_hi = 1.0;
    int last_side = 0;  // -1: lo moved last, +1: hi moved last
    double width_before = t_hi - t_lo;
    for (int iter = 0; iter < kMaxIterations && t_hi - t_lo > tol; ++iter) {
      const double width = t_hi - t_lo;
      // The earliest secant estimate among the functions that changed sign in the bracket.
      double frac = 0.0;
      for (int i = 0; i < ng; ++i) {
        if (!SignChanged(g_lo_[i], g_hi_[i])) continue;
        const double num = w_hi * g_hi_[i];
        const double den = num - w_lo * g_lo_[i];
        const double f = den != 0.0 ? num / den : 0.5;
        frac = std::max(frac, f);
      }
      double t_mid = t_hi - frac * width;
      // Every other iteration, insist that the bracket has at least halved; otherwise bisect.
      if (iter % 2 == 1) {
        if (width > 0.5 * width_before) t_mid = t_lo + 0.5 * width;
        width_before = width;
      }
      // Stay at least tol/2 inside the bracket: a point that close to an end that lands on
      // the other side of the crossing ends the search.
      const double margin = std::min(0.5 * tol, 0.25 * width);
      t_mid = std::clamp(t_mid, t_lo + margin, t_hi - margin);
      g_at(t_mid, g_mid_);
      // A probed function has its probe's sign up to the probe's time: there it may still be
      // a rounding error on the far side of its last crossing (a bounce's reset left the
      // ball 4e-16 m below the floor, rising), and taken at its word it would make a
      // crossing of that error, a hair after the restart, where the ball turns round again.
      if (t_mid < probe_until_) {
        for (int i = 0; i < ng; ++i) {
          if (probe_[i] != 0) g_mid_[i] = g_lo_[i];
        }
      }
      // A point where g is exactly zero counts as not crossed yet: the step must end on the
      // far side.
      bool changed = false;
      for (int i = 0; i < ng && !changed; ++i) changed = SignStrictlyChanged(g_lo_[i], g_mid_[i]);
      if (changed) {
        t_hi = t_mid;
        g_hi_.swap(g_mid_);
        if (last_side == 1) w_lo *= 0.5;
        w_hi = 1.0;
        last_side = 1;
      } else {
        t_lo = t_mid;
        g_lo_.swap(g_mid_);
        // A function exactly zero here keeps its last nonzero value at the low end, so that
        // the bracket still shows its sign change.
        for (int i = 0; i < ng; ++i) {
          if (g_lo_[i] == 0.0) g_lo_[i] = g_mid_[i];
        }
        if (last_side == -1) w_hi *= 0.5;
        w_lo = 1.0;
        last_side = -1;
      }
    }
    crossed_.clear();
    for (int i = 0; i < ng; ++i) {
      if (SignChanged(g_lo_[i], g_hi_[i])) crossed_.push_back(i);
    }
    t_located_ = t_hi;
    return t_hi;
  }

  std::span<const int> crossed() const { return crossed_; }
  const Eigen::VectorXd& g_at_end() const { return g_hi_; }

 private:
  Eigen::VectorXd g_lo_, g_hi_, g_mid_;  // (ng) bracket ends and the trial point
  std::vector<int> crossed_;             // capacity ng
  double t_located_ = std::numeric_limits<double>::quiet_NaN();  // the last Locate's result
  std::vector<char> probe_;  // (ng) 1: the restart's probe decides the function's sign
  // The last probe's time: up to it the probed functions keep the probe's sign (NaN: none).
  double probe_until_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace twinblocks::solvers::internal
