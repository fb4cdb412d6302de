#pragma once

// The quasi-static balance of the adaptive-synergy model (Rocchi & Hauser 2016, "A Generic
// Simulator for Underactuated Compliant Hands", eq. 2-5, with the signs the project's
// reference repairs): over n joints q with linear springs, tendons i of lengths l_i(q) held at
// commands s_i and couplings q_A = ratio q_B + offset, find q, the tensions f and the
// couplings' torques lambda with
//   -K q + b + R(q)^T f + C^T lambda + tau_ext = 0,   l(q) = s,   C q = d,
// K the springs' stiffness (diagonal), b = K q_rest summed over the springs, R_i = dl_i/dq,
// tau_ext the external generalized forces (contacts, weights), held fixed. With constant arms
// one Newton step solves it exactly (it is linear: eq. 4-5 in closed form); with arms that
// change with q, Newton iterates.

#include <Eigen/Core>
#include <Eigen/LU>

namespace twinblocks::multibody {

class SynergyEquilibriumSolver {
 public:
  /// n joints, na tendons, nc couplings. Sizes everything once.
  SynergyEquilibriumSolver(int n, int na, int nc);

  /// The problem, set by the caller: K (n, diagonal stiffness), b (n), tau_ext (n), s (na),
  /// C (nc x n), d (nc).
  Eigen::VectorXd K, b, tau_ext, s;
  Eigen::MatrixXd C;
  Eigen::VectorXd d;

  /// What a tendon evaluation writes at q (see Solve): l (na), R (na x n) and the arms' slopes
  /// dR (na x n: dR(i, j) = d r_ij / d q_j; arms depend on their own joint only).
  Eigen::VectorXd l;
  Eigen::MatrixXd R, dR;

  /// The solution: q (n), f (na), lambda (nc). q holds the first guess on entry.
  Eigen::VectorXd q, f, lambda;

  /// Newton's method from q (f and lambda from zero). `tendons(q)` fills l, R and dR at q.
  /// With constant arms (dR zero) the balance is linear: one step solves it, and its matrix,
  /// which then depends on K, R and C alone, is factored again only when one of them changed
  /// (a run's predictions solve with the factors of its first).
  /// @returns true when the step fell below `tolerance` (rad or m) within max_iterations and
  /// the system was regular; false otherwise (q, f, lambda then hold the last iterate).
  template <class TendonEvaluation>
  bool Solve(TendonEvaluation&& tendons, int max_iterations = 30, double tolerance = 1e-13);

  /// True when the balance determines q at the current R and C whatever tau_ext: K is
  /// positive definite on the motions the tendons and couplings allow (the Newton matrix at
  /// f = 0 is regular). Call after filling R (and C).
  bool Determined();

 private:
  void FormMatrix();
  /// Factors A_ unless it equals the matrix factored last; false when it is singular.
  bool FactorMatrix();
  int n_, na_, nc_;
  Eigen::MatrixXd A_;         ///< (n + na + nc)^2 Newton matrix
  Eigen::MatrixXd factored_;  ///< the matrix lu_ holds the factors of (empty: none yet)
  bool regular_ = false;      ///< lu_'s matrix is regular
  Eigen::VectorXd r_, dx_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

template <class TendonEvaluation>
bool SynergyEquilibriumSolver::Solve(TendonEvaluation&& tendons, int max_iterations,
                                     double tolerance) {
  f.setZero();
  lambda.setZero();
  for (int it = 0; it < max_iterations; ++it) {
    tendons(q, l, R, dR);
    // The residual of the balance, the tendons' lengths and the couplings.
    r_.head(n_) = b + tau_ext - K.cwiseProduct(q);
    r_.head(n_).noalias() += R.transpose() * f;
    r_.head(n_).noalias() += C.transpose() * lambda;
    r_.segment(n_, na_) = l - s;
    r_.tail(nc_).noalias() = C * q;  // (C q - d in one expression: a temporary, allocated)
    r_.tail(nc_) -= d;
    FormMatrix();
    if (!FactorMatrix()) return false;
    r_ = -r_;  // in place: a solve of the expression -r_ would allocate its temporary
    dx_.noalias() = lu_.solve(r_);
    if (!dx_.allFinite()) return false;
    q += dx_.head(n_);
    f += dx_.segment(n_, na_);
    lambda += dx_.tail(nc_);
    if (dR.isZero(0.0)) return true;  // linear: the step was exact
    if (dx_.head(n_).cwiseAbs().maxCoeff() <= tolerance) return true;
  }
  return false;
}

}  // namespace twinblocks::multibody
