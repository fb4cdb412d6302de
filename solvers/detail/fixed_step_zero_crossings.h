#pragma once

// Zero crossings located inside the steps of a fixed-step solver (Simulink's "Enable
// zero-crossing detection for fixed-step simulation"): shared by ode1 ... ode5, ode1be and ros2.

#include <Eigen/Core>
#include <span>
#include <string_view>

#include "solvers/detail/fixed_step_grid.h"
#include "solvers/detail/step_helpers.h"
#include "solvers/detail/zero_crossing_locator.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers::internal {

/// After each step from (t0, x0) to (t1, x1), the problem's zero-crossing functions are
/// evaluated at its end. Where one changed sign, the step is cut back to just past the earliest
/// crossing: located with the Illinois method (ZeroCrossingLocator) on the cubic Hermite
/// interpolant of the step, which takes x and f at both ends (f at the end costs one
/// evaluation, only in the steps that cross). The state there is the interpolant's, of the
/// fourth order locally, as a variable-step solver's dense output. The solver then restarts
/// there, as after any located crossing, and its grid with it.
class FixedStepZeroCrossings {
 public:
  /// `ng` 0 (location off, or a problem without zero crossings) makes every call a no-op.
  FixedStepZeroCrossings(int nx, int ng)
      : ng_(ng),
        locator_(ng),
        g0_(Eigen::VectorXd::Zero(ng)),
        g1_(Eigen::VectorXd::Zero(ng)),
        g_probe_(Eigen::VectorXd::Zero(ng)),
        f0_(Eigen::VectorXd::Zero(ng > 0 ? nx : 0)),
        f1_(Eigen::VectorXd::Zero(ng > 0 ? nx : 0)),
        x_interp_(Eigen::VectorXd::Zero(ng > 0 ? nx : 0)) {}

  bool enabled() const { return ng_ > 0; }

  /// At a (re)start at (t, x), with steps of about h: the functions there. A function exactly
  /// zero, or one whose crossing was just located at t, takes its sign a hair later along f
  /// (ZeroCrossingLocator::MarkProbed), which costs one evaluation of f and of g.
  void Start(OdeProblem* problem, std::string_view solver, double t, const Eigen::VectorXd& x,
             double h, IntegratorStats* stats) {
    if (ng_ == 0) return;
    EvaluateG(problem, solver, t, x, &g0_, stats);
    const double delta = locator_.MarkProbed(g0_, t, h);
    if (delta <= 0.0) return;
    EvaluateF(problem, solver, t, x, &f0_, stats);
    x_interp_ = x + delta * f0_;
    EvaluateG(problem, solver, t + delta, x_interp_, &g_probe_, stats);
    locator_.TakeProbedSigns(g_probe_, &g0_);
  }

  /// After a step of size h from (t0, x0) to (*t1, *x1): true when a function changed sign,
  /// and then *t1 and *x1 are moved back to just past the earliest crossing, and crossed()
  /// lists the functions that changed sign there. `f0` is f(t0, x0) where the method has it
  /// (an explicit method's first stage), null where it has not (it is then evaluated, in the
  /// steps that cross only).
  bool Check(OdeProblem* problem, std::string_view solver, double t0, const Eigen::VectorXd& x0,
             const Eigen::Ref<const Eigen::VectorXd>* f0, double h, double* t1, Eigen::VectorXd* x1,
             IntegratorStats* stats) {
    if (ng_ == 0) return false;
    EvaluateG(problem, solver, *t1, *x1, &g1_, stats);
    if (!ZeroCrossingLocator::AnyChanged(g0_, g1_)) {
      g0_.swap(g1_);
      return false;
    }
    if (f0 != nullptr) {
      f0_ = *f0;
    } else {
      EvaluateF(problem, solver, t0, x0, &f0_, stats);
    }
    EvaluateF(problem, solver, *t1, *x1, &f1_, stats);
    const double t_step = *t1 - t0;
    const auto interpolate = [&](double t, Eigen::VectorXd* x) {
      // Cubic Hermite on [t0, t1] through x0, x1 with slopes f0, f1.
      const double s = (t - t0) / t_step;
      const double s2 = s * s, s3 = s2 * s;
      *x = (2.0 * s3 - 3.0 * s2 + 1.0) * x0 + ((s3 - 2.0 * s2 + s) * t_step) * f0_ +
           (3.0 * s2 - 2.0 * s3) * (*x1) + ((s3 - s2) * t_step) * f1_;
    };
    const double t_cross = locator_.Locate(t0, *t1, h, g0_, g1_, [&](double t, Eigen::VectorXd& g) {
      interpolate(t, &x_interp_);
      EvaluateG(problem, solver, t, x_interp_, &g, stats);
    });
    if (t_cross != *t1) {
      interpolate(t_cross, &x_interp_);
      x1->swap(x_interp_);
      *t1 = t_cross;
    }
    g0_ = locator_.g_at_end();
    ++stats->zero_crossings;
    return true;
  }

  /// The end of a fixed step `step` from (t0, x0) to (*t1, *x1), planned on `grid`: Check,
  /// and where a function crossed, the grid and the functions start again at the crossing (as
  /// after a landing); otherwise the step counts on the grid. True at a crossing.
  bool EndStep(OdeProblem* problem, std::string_view solver, double t0, const Eigen::VectorXd& x0,
               const Eigen::Ref<const Eigen::VectorXd>* f0, const FixedStepGrid::Step& step,
               FixedStepGrid* grid, double* t1, Eigen::VectorXd* x1, IntegratorStats* stats) {
    if (!Check(problem, solver, t0, x0, f0, step.h, t1, x1, stats)) {
      grid->Taken(step);
      return false;
    }
    grid->Restart(*t1);
    Start(problem, solver, *t1, *x1, step.h, stats);
    return true;
  }

  std::span<const int> crossed() const { return locator_.crossed(); }

  /// The functions' values at the last step's end, in a solver's saved memory.
  int memory_size() const { return ng_; }
  void Save(MemoryWriter& out) const {
    if (ng_ > 0) out << g0_;
  }
  void Restore(MemoryReader& in) {
    if (ng_ == 0) return;
    in.Into(&g0_);
    locator_.ForgetLocated();
  }

 private:
  static void EvaluateG(OdeProblem* problem, std::string_view solver, double t,
                        const Eigen::VectorXd& x, Eigen::VectorXd* g, IntegratorStats* stats) {
    ++stats->zc_evals;
    const int flag = problem->CalcZeroCrossings(t, x, *g);
    if (flag != 0) ThrowFailure(problem, solver, "the zero-crossing evaluation", flag, t);
  }
  static void EvaluateF(OdeProblem* problem, std::string_view solver, double t,
                        const Eigen::VectorXd& x, Eigen::VectorXd* f, IntegratorStats* stats) {
    ++stats->rhs_evals;
    const int flag = problem->CalcDerivatives(t, x, *f);
    if (flag != 0) ThrowFailure(problem, solver, "the derivative evaluation", flag, t);
  }
  [[noreturn]] static void ThrowFailure(OdeProblem* problem, std::string_view solver,
                                        const char* what, int flag, double t);

  int ng_;
  ZeroCrossingLocator locator_;
  Eigen::VectorXd g0_, g1_, g_probe_;  // (ng) at the step's start and end, at a probe
  Eigen::VectorXd f0_, f1_;            // (nx) f at the step's ends
  Eigen::VectorXd x_interp_;           // (nx)
};

}  // namespace twinblocks::solvers::internal
