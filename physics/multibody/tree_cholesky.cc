#include "physics/multibody/tree_cholesky.h"

#include <cmath>
#include <stdexcept>

namespace twinblocks::multibody {

TreeCholesky::TreeCholesky(const KinematicTree& tree, const std::vector<int>& coordinates) {
  const int n = static_cast<int>(coordinates.size());
  // Per tree coordinate: its position among `coordinates`, -1 when left out.
  std::vector<int> position(tree.nv(), -1);
  for (int a = 0; a < n; ++a) {
    const int k = coordinates[a];
    if (k < 0 || k >= tree.nv() || (a > 0 && k <= coordinates[a - 1])) {
      throw std::invalid_argument("TreeCholesky: the coordinates must be ascending, in range");
    }
    position[k] = a;
  }
  coordinates_ = coordinates;
  parent_.assign(n, -1);
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int first = tree.idx_v(b), nv = tree.joint(b).nv();
    for (int o = 0; o < nv; ++o) {
      const int a = position[first + o];
      if (a < 0) continue;
      if (o > 0 && position[first + o - 1] >= 0) {
        parent_[a] = position[first + o - 1];
        continue;
      }
      // The nearest ancestor joint with a coordinate kept: its last one.
      for (int p = tree.parent(b); p >= 0; p = tree.parent(p)) {
        const int last = tree.idx_v(p) + tree.joint(p).nv() - 1;
        if (tree.joint(p).nv() > 0 && position[last] >= 0) {
          parent_[a] = position[last];
          break;
        }
      }
    }
  }
  L_ = Eigen::MatrixXd::Zero(n, n);
}

bool TreeCholesky::Factor(const Eigen::Ref<const Eigen::MatrixXd>& H) {
  const int n = size();
  // Only the entries the factor keeps: each coordinate's row at its ancestors.
  for (int k = 0; k < n; ++k) {
    L_(k, k) = H(k, k);
    for (int i = parent_[k]; i >= 0; i = parent_[i]) L_(k, i) = H(k, i);
  }
  return FactorInPlace();
}

bool TreeCholesky::FactorOfTree(const Eigen::Ref<const Eigen::MatrixXd>& M) {
  const int n = size();
  for (int k = 0; k < n; ++k) {
    const int row = coordinates_[k];
    L_(k, k) = M(row, row);
    for (int i = parent_[k]; i >= 0; i = parent_[i]) L_(k, i) = M(row, coordinates_[i]);
  }
  return FactorInPlace();
}

bool TreeCholesky::FactorInPlace() {
  const int n = size();
  // Featherstone's LTL, from the leaves in: row k's pivot, then its ancestors' entries
  // scaled, then the update of the ancestors' own rows (only ancestor pairs are touched).
  for (int k = n - 1; k >= 0; --k) {
    const double pivot = L_(k, k);
    if (!(pivot > 0.0) || !std::isfinite(pivot)) return false;
    const double root = std::sqrt(pivot);
    L_(k, k) = root;
    for (int i = parent_[k]; i >= 0; i = parent_[i]) L_(k, i) /= root;
    for (int i = parent_[k]; i >= 0; i = parent_[i]) {
      const double lki = L_(k, i);
      for (int j = i; j >= 0; j = parent_[j]) L_(i, j) -= lki * L_(k, j);
    }
  }
  return true;
}

void TreeCholesky::SolveTransposedFactor(double* b) const {
  // L^T y = b: each coordinate after all its descendants (they come later in the order); a
  // zero stays zero until a descendant's nonzero reaches it.
  for (int k = size() - 1; k >= 0; --k) {
    if (b[k] == 0.0) continue;
    b[k] /= L_(k, k);
    const double yk = b[k];
    for (int i = parent_[k]; i >= 0; i = parent_[i]) b[i] -= L_(k, i) * yk;
  }
}

void TreeCholesky::SolveFactor(double* b) const {
  // L x = y: each coordinate after its ancestors.
  for (int k = 0; k < size(); ++k) {
    double sum = b[k];
    for (int i = parent_[k]; i >= 0; i = parent_[i]) sum -= L_(k, i) * b[i];
    b[k] = sum / L_(k, k);
  }
}

void TreeCholesky::SolveInPlace(Eigen::Ref<Eigen::MatrixXd> b) const {
  for (Eigen::Index c = 0; c < b.cols(); ++c) {
    SolveTransposedFactor(b.col(c).data());
    SolveFactor(b.col(c).data());
  }
}

void TreeCholesky::SolveTransposedFactorInPlace(Eigen::Ref<Eigen::MatrixXd> b) const {
  for (Eigen::Index c = 0; c < b.cols(); ++c) SolveTransposedFactor(b.col(c).data());
}

void TreeCholesky::SolveFactorInPlace(Eigen::Ref<Eigen::MatrixXd> b) const {
  for (Eigen::Index c = 0; c < b.cols(); ++c) SolveFactor(b.col(c).data());
}

}  // namespace twinblocks::multibody
