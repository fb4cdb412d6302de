#include "solvers/average_vector_field_integrator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "solvers/detail/step_helpers.h"
#include "solvers/solver_table.h"

namespace twinblocks::solvers {
namespace {

// 3-point Gauss-Legendre on [0, 1]: nodes 1/2 -+ sqrt(15)/10 and 1/2, weights 5/18, 8/18, 5/18.
const double kGaussOffset = std::sqrt(15.0) / 10.0;
const std::array<double, 3> kNodes = {0.5 - kGaussOffset, 0.5, 0.5 + kGaussOffset};
constexpr std::array<double, 3> kWeights = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};

constexpr int kMaxCorrections = 40;
// The contraction of the corrections beyond which the Newton matrix is formed again.
constexpr double kSlowContraction = 0.25;
// A correction below this (relative to its state's scale) that no longer shrinks ends the
// iteration: round-off for a smooth f, or the limit of a right-hand side with switches (a
// friction's stick and slip, decided anew at each quadrature node).
constexpr double kStalledCorrection = 1e-6;

std::string TimeText(double t) {
  std::ostringstream os;
  os.precision(17);
  os << t;
  return os.str();
}

}  // namespace

AverageVectorFieldIntegrator::AverageVectorFieldIntegrator(OdeProblem* problem,
                                                           const IntegratorOptions& options)
    : FixedStepImplicitIntegrator(solver_names::kAvf, problem, options, false) {
  peak_ = f0_ = x1_ = residual_ = x_node_ = f_node_ = Eigen::VectorXd::Zero(nx_);
}

std::string_view AverageVectorFieldIntegrator::name() const { return solver_names::kAvf; }

void AverageVectorFieldIntegrator::CalcResidual(double t0, double h, const Eigen::VectorXd& x1) {
  residual_ = x1 - x_;
  for (size_t i = 0; i < kNodes.size(); ++i) {
    x_node_ = x_ + kNodes[i] * (x1 - x_);
    jac_.Evaluate(t0 + kNodes[i] * h, x_node_, f_node_, t0, &stats_);
    residual_ -= (h * kWeights[i]) * f_node_;
  }
}

StepResult AverageVectorFieldIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name(), started_, t_, t_stop);
  StepResult result;
  if (t_stop == t_) {
    result.t = t_;
    return result;
  }
  const internal::FixedStepGrid::Step step = grid_.Plan(t_, t_stop, options_.fixed_step);
  const double h = step.h;

  jac_.Evaluate(t_, x_, f0_, t_, &stats_);
  jac_.Prepare(t_, x_, f0_, 0.5 * h, t_, &stats_);
  // The linearly implicit midpoint step: one Newton iteration from x1 = x0.
  x1_ = h * f0_;
  jac_.Solve(x1_);
  x1_ += x_;
  double previous = 0.0;
  for (int k = 0;; ++k) {
    CalcResidual(t_, h, x1_);
    jac_.Solve(residual_);
    x1_ -= residual_;
    // The largest correction relative to its state's scale: the largest of its values at
    // both ends, its change, and the largest it has reached in the run (a velocity through
    // zero is measured against its amplitude).
    double size = 0.0;
    for (int j = 0; j < nx_; ++j) {
      peak_[j] = std::max(peak_[j], std::abs(x1_[j]));
      const double scale = std::max(peak_[j], std::abs(x1_[j] - x_[j]));
      if (residual_[j] != 0.0) size = std::max(size, std::abs(residual_[j]) / scale);
    }
    if (!std::isfinite(size)) {
      const int bad = internal::FirstNonFinite(x1_);
      throw SolverError(
          internal::NonFiniteStateMessage(name(), problem_->DescribeState(std::max(bad, 0)),
                                          bad >= 0 ? x1_[bad] : size, t_, step.t_new),
          t_);
    }
    // Converged to round-off, or no longer shrinking there.
    if (size <= 4.0 * internal::kEps ||
        (k > 0 && size <= kStalledCorrection && size > 0.5 * previous)) {
      break;
    }
    if (k + 1 >= kMaxCorrections || (k > 2 && size > previous && size > kStalledCorrection)) {
      throw SolverError(std::string(name()) + ": the Newton iteration of the step from t = " +
                            TimeText(t_) + " s did not converge (correction " +
                            std::to_string(size) + " of the state's size after " +
                            std::to_string(k + 1) + " iterations); a smaller fixed_step",
                        t_);
    }
    // A slow contraction (a strongly nonlinear step, a stiff spring turned much within it):
    // the Newton matrix anew, at the chord's midpoint, where I - h/2 J is the exact one to
    // second order.
    if (k > 0 && size > kStalledCorrection && size > kSlowContraction * previous) {
      x_node_ = 0.5 * (x_ + x1_);
      jac_.Evaluate(t_ + 0.5 * h, x_node_, f_node_, t_, &stats_);
      jac_.Refresh(t_ + 0.5 * h, x_node_, f_node_, 0.5 * h, t_, &stats_);
    }
    previous = size;
  }
  return FinishStep(step, &f0_, &x1_);
}

}  // namespace twinblocks::solvers
