#include "solvers/detail/iteration_matrix.h"

#include <algorithm>
#include <utility>

namespace twinblocks::solvers::internal {

IterationMatrix::IterationMatrix(int nx)
    : nx_(nx),
      J_(Eigen::MatrixXd::Zero(nx, nx)),
      lu_(Eigen::MatrixXd::Zero(nx, nx)),
      is_active_(nx, 0),
      pivot_(nx, 0),
      rhs_(Eigen::VectorXd::Zero(nx)),
      x_perturbed_(Eigen::VectorXd::Zero(nx)),
      f_perturbed_(Eigen::VectorXd::Zero(nx)) {
  active_.reserve(nx);
}

bool IterationMatrix::Factor(double gamma_h) {
  // A state is active when its row or its column of J holds a nonzero; a nonzero lies in a
  // nonzero column, so only those are searched for rows.
  std::fill(is_active_.begin(), is_active_.end(), 0);
  for (int c = 0; c < nx_; ++c) {
    if (!(J_.col(c).array() != 0.0).any()) continue;
    is_active_[c] = 1;
    for (int r = 0; r < nx_; ++r) {
      if (J_(r, c) != 0.0) is_active_[r] = 1;
    }
  }
  active_.clear();
  for (int i = 0; i < nx_; ++i) {
    if (is_active_[i] != 0) active_.push_back(i);
  }
  const int m = static_cast<int>(active_.size());
  for (int c = 0; c < m; ++c) {
    for (int r = 0; r < m; ++r) {
      lu_(r, c) = (r == c ? 1.0 : 0.0) - gamma_h * J_(active_[r], active_[c]);
    }
  }
  for (int k = 0; k < m; ++k) {
    int p = k;
    for (int r = k + 1; r < m; ++r) {
      if (std::abs(lu_(r, k)) > std::abs(lu_(p, k))) p = r;
    }
    pivot_[k] = p;
    if (!(std::abs(lu_(p, k)) > 0.0) || !std::isfinite(lu_(p, k))) return false;
    if (p != k) {
      for (int c = 0; c < m; ++c) std::swap(lu_(k, c), lu_(p, c));
    }
    const double inv = 1.0 / lu_(k, k);
    for (int r = k + 1; r < m; ++r) {
      const double l = lu_(r, k) * inv;
      lu_(r, k) = l;
      if (l == 0.0) continue;
      for (int c = k + 1; c < m; ++c) lu_(r, c) -= l * lu_(k, c);
    }
  }
  return true;
}

void IterationMatrix::Solve(Eigen::Ref<Eigen::VectorXd> b) {
  const int m = static_cast<int>(active_.size());
  if (m == 0) return;
  double* y = rhs_.data();
  for (int r = 0; r < m; ++r) y[r] = b[active_[r]];
  for (int k = 0; k < m; ++k) {
    if (pivot_[k] != k) std::swap(y[k], y[pivot_[k]]);
  }
  for (int r = 1; r < m; ++r) {
    double s = y[r];
    for (int c = 0; c < r; ++c) s -= lu_(r, c) * y[c];
    y[r] = s;
  }
  for (int r = m - 1; r >= 0; --r) {
    double s = y[r];
    for (int c = r + 1; c < m; ++c) s -= lu_(r, c) * y[c];
    y[r] = s / lu_(r, r);
  }
  for (int r = 0; r < m; ++r) b[active_[r]] = y[r];
}

}  // namespace twinblocks::solvers::internal
