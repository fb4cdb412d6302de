#pragma once

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "solvers/detail/fixed_step_implicit_integrator.h"
#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// The fixed-step linearly implicit methods.
enum class RosenbrockMethod {
  /// ode1be: backward Euler with one Newton iteration from x_n (linearly implicit Euler),
  /// order 1, L-stable with the exact Jacobian:
  ///   (I - h J) d = h f(t_n + h, x_n),   x_{n+1} = x_n + d.
  kLinearlyImplicitEuler,
  /// ros2: the two-stage Rosenbrock-W method ROS2 of Verwer, Spee, Blom and Hundsdorfer
  /// (SIAM J. Sci. Comput. 20(4), 1999), gamma = 1 + 1/sqrt(2), T = df/dt:
  ///   (I - gamma h J) k1 = f(t_n, x_n) + gamma h T
  ///   (I - gamma h J) k2 = f(t_n + h, x_n + h k1) - 2 k1 - gamma h T
  ///   x_{n+1} = x_n + 3/2 h k1 + 1/2 h k2,
  /// second order for any matrix J (a W-method), L-stable with the exact Jacobian. T is
  /// formed with J by a difference in t (IterationMatrix::FormTimeDerivative), 0 for a
  /// problem that declares itself autonomous; without it a stiff term driven through t
  /// (x' = -1e4 (x - cos t) - sin t) is only first-order accurate, 2e4 times worse at h = 1e-2.
  /// (ode1be evaluates f at t_n + h, which serves it as T would.)
  kRos2,
};

/// A fixed-step method that is implicit in the stiff part of the problem at the price of one
/// linear solve per stage, with no Newton iteration to converge: the stiffness of a contact's
/// damping and sticking friction is damped out instead of bounding the step. The matrix J is
/// the problem's own (OdeProblem::CalcJacobian: a diagram gives the stiff terms its blocks
/// know, e.g. a mechanism's contact damping) or, when it has none, a forward-difference
/// Jacobian over every state, both formed anew every step at the step's first evaluation, or
/// every options.jacobian_steps steps: both methods are W-methods (their order holds for any
/// matrix in place of J), so a kept J costs stability margin, not order. W's factors are kept
/// with J while the step is the same.
///
/// The linear systems are solved over the states whose row or column of J is not zero (the
/// others' rows of I - gamma h J are those of I): for a grasp, the free object's six
/// velocities, whatever the size of the diagram.
///
/// Steps and landings as ExplicitRungeKuttaIntegrator: h = min(options.fixed_step, t_stop -
/// t), no sliver steps, times t_base + n h between landings. Zero crossings are located only with
/// options.fixed_step_zero_crossings (internal::FixedStepZeroCrossings).
class RosenbrockIntegrator final : public internal::FixedStepImplicitIntegrator {
 public:
  /// @throws std::invalid_argument when options.fixed_step is not positive and finite.
  RosenbrockIntegrator(RosenbrockMethod method, OdeProblem* problem,
                       const IntegratorOptions& options);

  std::string_view name() const override;
  StepResult Step(double t_stop) override;

 private:
  RosenbrockMethod method_;
  bool uses_dfdt_;           // ros2 on a problem that may depend on t itself
  Eigen::VectorXd k1_, k2_;  // (nx) stage slopes
  Eigen::VectorXd x_stage_;  // (nx) argument of the second stage
};

}  // namespace twinblocks::solvers
