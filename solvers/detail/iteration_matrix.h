#pragma once

// The linear algebra of the linearly implicit solvers (ode1be, ros2, ode23s): a Jacobian of
// the problem and the factors of W = I - gamma h J.

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <vector>

#include "solvers/ode_problem.h"

namespace twinblocks::solvers::internal {

/// J = df/dx (or its stiff part) and the LU factors of I - gamma h J. The factors cover only
/// the active states, those whose row or column of J holds a nonzero: the other rows of W are
/// those of I. For a grasp that is the free object's six velocities, whatever the size of the
/// diagram. Allocates only in its constructor.
class IterationMatrix {
 public:
  explicit IterationMatrix(int nx);

  /// Forms J at (t, x), where f0 = f(t, x) was the problem's last evaluation: the problem's
  /// own Jacobian when it has one, otherwise forward differences over every state, each moved
  /// by sqrt(eps) of its size (at least of 1). `evaluate(x, out)` writes f(t, x) to `out` and
  /// throws on failure. Returns the problem's flag (0 for differences).
  template <class Evaluate>
  int Form(OdeProblem* problem, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0,
           Evaluate&& evaluate) {
    if (problem->has_jacobian()) return problem->CalcJacobian(t, x, J_);
    const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
    x_perturbed_ = x;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      const double delta = root_eps * std::max(std::abs(x[j]), 1.0);
      x_perturbed_[j] = x[j] + delta;
      evaluate(x_perturbed_, f_perturbed_);
      J_.col(j) = (f_perturbed_ - f0) / delta;
      x_perturbed_[j] = x[j];
    }
    return 0;
  }

  /// Factors I - gamma_h J over the active states (LU with partial pivoting, Golub & Van
  /// Loan Alg. 3.4.1). Returns false when the matrix is singular or not finite: J has an
  /// eigenvalue near 1 / gamma_h.
  bool Factor(double gamma_h);

  /// Solves (I - gamma_h J) y = b in place, with the factors of the last Factor.
  void Solve(Eigen::Ref<Eigen::VectorXd> b);

  /// True when state i's row or column of J held a nonzero at the last Factor: a state the
  /// problem declares stiff, or coupled to one.
  bool active(int i) const { return is_active_[i] != 0; }

 private:
  int nx_;
  Eigen::MatrixXd J_;            // (nx x nx)
  Eigen::MatrixXd lu_;           // (nx x nx) top-left m x m: LU factors over the active states
  std::vector<int> active_;      // (m) the active states, ascending
  std::vector<char> is_active_;  // (nx) 1 for an active state
  std::vector<int> pivot_;       // (m) row interchanges of the LU factors
  Eigen::VectorXd rhs_;          // (nx) right-hand side gathered over the active states
  Eigen::VectorXd x_perturbed_;  // (nx) for differences
  Eigen::VectorXd f_perturbed_;  // (nx)
};

}  // namespace twinblocks::solvers::internal
