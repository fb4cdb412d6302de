#pragma once

#include <Eigen/Core>
#include <string>

namespace twinblocks::solvers {

/// The coefficients of an explicit Runge-Kutta method with s stages:
///   k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j),   x_new = x + h sum_i b_i k_i.
/// An embedded pair also carries the weights `b_hat` of a lower-order solution; the local
/// error estimate is h sum_i (b_i - b_hat_i) k_i.
struct ButcherTableau {
  std::string name;        ///< e.g. "Dormand-Prince 5(4)"
  int order = 0;           ///< order p of the propagated solution (b)
  int embedded_order = 0;  ///< order of the embedded solution (b_hat), 0 when none
  Eigen::MatrixXd a;       ///< (s x s), strictly lower triangular
  Eigen::VectorXd b;       ///< (s x 1) weights of the propagated solution
  Eigen::VectorXd b_hat;   ///< (s x 1) weights of the embedded solution, empty when none
  Eigen::VectorXd c;       ///< (s x 1) nodes

  int num_stages() const { return static_cast<int>(b.size()); }

  /// True when the last stage is evaluated at (t + h, x_new): its derivative is the first
  /// stage of the next step ("first same as last").
  bool is_fsal() const;

  /// The stability boundary on the negative real axis: the largest x such that the
  /// propagated method's stability function R(z) = 1 + z b^T (I - z a)^-1 1 keeps |R(-y)| <= 1
  /// for every y in [0, x] (3.31 for Dormand-Prince 5, 2.51 for Bogacki-Shampine 3). A step
  /// of an explicit method on x' = lambda x (lambda < 0) is stable while h |lambda| is below
  /// it.
  double RealStabilityBoundary() const;

  /// Checks the row-sum condition c_i = sum_j a_ij, sum b = 1 and sum b_hat = 1.
  /// @throws std::logic_error naming the violated condition.
  void Validate() const;
};

/// Forward Euler, order 1 (Simulink's ode1).
ButcherTableau EulerTableau();
/// Heun's method (explicit trapezoidal rule), order 2 (Simulink's ode2).
ButcherTableau HeunTableau();
/// Bogacki-Shampine 3(2) with its FSAL fourth stage and embedded second-order weights
/// (Bogacki & Shampine 1989). ode23 uses it whole; ode3 uses its first three stages.
ButcherTableau BogackiShampineTableau();
/// The classic fourth-order Runge-Kutta method (Simulink's ode4).
ButcherTableau ClassicRungeKuttaTableau();
/// Dormand-Prince 5(4), seven stages with FSAL (Dormand & Prince 1980; Hairer, Norsett &
/// Wanner, Solving ODEs I, Table II.5.2). ode45 uses it whole; ode5 its first six stages.
ButcherTableau DormandPrinceTableau();

/// The propagated method of an embedded FSAL pair without its last stage (whose weight in b is
/// zero): the fixed-step version, one derivative evaluation cheaper per step.
ButcherTableau DropFsalStage(const ButcherTableau& pair);

}  // namespace twinblocks::solvers
