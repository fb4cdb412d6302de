#include "physics/multibody/synergy_equilibrium.h"

#include <cmath>

namespace twinblocks::multibody {

SynergyEquilibriumSolver::SynergyEquilibriumSolver(int n, int na, int nc)
    : K(Eigen::VectorXd::Zero(n)),
      b(Eigen::VectorXd::Zero(n)),
      tau_ext(Eigen::VectorXd::Zero(n)),
      s(Eigen::VectorXd::Zero(na)),
      C(Eigen::MatrixXd::Zero(nc, n)),
      d(Eigen::VectorXd::Zero(nc)),
      l(Eigen::VectorXd::Zero(na)),
      R(Eigen::MatrixXd::Zero(na, n)),
      dR(Eigen::MatrixXd::Zero(na, n)),
      q(Eigen::VectorXd::Zero(n)),
      f(Eigen::VectorXd::Zero(na)),
      lambda(Eigen::VectorXd::Zero(nc)),
      n_(n),
      na_(na),
      nc_(nc),
      A_(Eigen::MatrixXd::Zero(n + na + nc, n + na + nc)),
      r_(Eigen::VectorXd::Zero(n + na + nc)),
      dx_(Eigen::VectorXd::Zero(n + na + nc)),
      factored_(Eigen::MatrixXd::Zero(n + na + nc, n + na + nc)),
      lu_(n + na + nc) {}

bool SynergyEquilibriumSolver::FactorMatrix() {
  if (regular_ && A_ == factored_) return true;
  lu_.compute(A_);
  factored_ = A_;
  regular_ = std::abs(lu_.determinant()) > 0.0;
  return regular_;
}

void SynergyEquilibriumSolver::FormMatrix() {
  // d(residual)/d(q, f, lambda): the springs and the arms' turning with q (the tension's
  // torque r_ij(q_j) f_i changes by dR_ij f_i per unit q_j), then R^T and C^T; below, R, C.
  A_.setZero();
  for (int j = 0; j < n_; ++j) {
    double diagonal = -K[j];
    for (int i = 0; i < na_; ++i) diagonal += dR(i, j) * f[i];
    A_(j, j) = diagonal;
  }
  A_.block(0, n_, n_, na_) = R.transpose();
  A_.block(0, n_ + na_, n_, nc_) = C.transpose();
  A_.block(n_, 0, na_, n_) = R;
  A_.block(n_ + na_, 0, nc_, n_) = C;
}

bool SynergyEquilibriumSolver::Determined() {
  f.setZero();
  FormMatrix();
  // Rank by the full-pivot LU's pivots, relative to the largest entry.
  Eigen::FullPivLU<Eigen::MatrixXd> lu(A_);
  lu.setThreshold(1e-10);
  return lu.isInvertible();
}

}  // namespace twinblocks::multibody
