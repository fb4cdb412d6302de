#pragma once

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "solvers/detail/fixed_step_implicit_integrator.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// avf: the average vector field method of Quispel & McLaren (2008, "A new class of
/// energy-preserving numerical integration methods", J. Phys. A 41 045206), fixed step:
///   x_{n+1} = x_n + h * integral over s in [0, 1] of f(t_n + s h, x_n + s (x_{n+1} - x_n)) ds.
/// For a Hamiltonian system x' = S grad H(x) with a constant skew S (a mass-spring body:
/// positions and velocities, S = [0 M^-1; -M^-1 0]) it keeps H exactly, at any step: the
/// integral of grad H along the chord is H(x_{n+1}) - H(x_n), and S is skew. It is symmetric,
/// second order and A-stable without damping (on a linear problem it is the implicit midpoint
/// rule), so that an undamped elastic body's fastest modes neither grow nor decay when the
/// step does not resolve them: the solver for conservation checks and lightly damped
/// structures at a step set by the motion of interest.
///
/// The integral is taken by 3-point Gauss-Legendre quadrature (exact for a cubic spring's
/// polynomial forces; for the geometric nonlinearity of a spring's length, its error is of
/// the sixth power of a step's motion over the spring's length), the implicit equation by
/// Newton iterations with W = I - h/2 J (J at the step's start, kept as ode1be keeps it:
/// options.jacobian_steps; formed again at the chord's midpoint when the corrections shrink
/// by less than a factor 4, as they do when a step turns stiff springs much), from the
/// linearly implicit midpoint step, until the correction reaches round-off: each state's
/// correction at most 4 eps of its scale (its largest size since the start, or its change in
/// the step), or no longer shrinking once under 1e-6 of it (round-off, or the
/// limit a right-hand side with switches such as friction's stick and slip allows). An iteration
/// that diverges or takes more than 40 corrections fails the step with the time (a fixed-step
/// solver cannot shrink its step: a smaller fixed_step is the remedy).
///
/// Steps, landings and zero crossings as RosenbrockIntegrator.
class AverageVectorFieldIntegrator final : public internal::FixedStepImplicitIntegrator {
 public:
  /// @throws std::invalid_argument when options.fixed_step is not positive and finite.
  AverageVectorFieldIntegrator(OdeProblem* problem, const IntegratorOptions& options);

  std::string_view name() const override;
  StepResult Step(double t_stop) override;

 protected:
  /// Each state's largest size restarts from its value.
  void OnRestart() override { peak_ = x_.cwiseAbs(); }

 private:
  /// R = x1 - x0 - h (the quadrature of f along the chord) into residual_.
  void CalcResidual(double t0, double h, const Eigen::VectorXd& x1);

  Eigen::VectorXd f0_;        // (nx) f at the step's start
  Eigen::VectorXd x1_;        // (nx) the iterate of the step's end
  Eigen::VectorXd residual_;  // (nx) R, then the correction
  Eigen::VectorXd x_node_;    // (nx) a quadrature node's state
  Eigen::VectorXd f_node_;    // (nx) f there
  Eigen::VectorXd peak_;      // (nx) each state's largest size since the (re)start
};

}  // namespace twinblocks::solvers
