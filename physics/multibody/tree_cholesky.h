#pragma once

// The joint-space mass matrix of a kinematic tree, factored with the sparsity the tree gives
// it: M(i, j) is nonzero only when coordinate i's joint is j's, an ancestor's or a
// descendant's, and the factor L in M = L^T L keeps exactly that pattern (no fill-in).
// Featherstone (2005), "Efficient Factorization of the Joint-Space Inertia Matrix for
// Branched Kinematic Trees" (the LTL factorization; also Featherstone 2008, "Rigid Body
// Dynamics Algorithms", Sec. 6.5, Table 6.3). Factoring costs the sum over the coordinates of
// their depth squared, a solve the sum of the depths: for a hand of five fingers on a palm,
// a few percent of the dense Cholesky's n^3 / 3 and n^2.

#include <Eigen/Core>
#include <vector>

#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::multibody {

class TreeCholesky {
 public:
  TreeCholesky() = default;

  /// For the velocity coordinates `coordinates` of `tree` (ascending; every joint's
  /// coordinates all in or all out): the rows and columns of M that Factor takes, in that
  /// order. Each coordinate's parent is the nearest coordinate before it on the path to the
  /// root (within its joint, the joint's previous coordinate).
  /// @throws std::invalid_argument if `coordinates` is not ascending or out of range.
  TreeCholesky(const KinematicTree& tree, const std::vector<int>& coordinates);

  int size() const { return static_cast<int>(parent_.size()); }

  /// Factors H = L^T L, reading H's entries between each coordinate and its ancestors (the
  /// others are zero for a tree's M). Allocates nothing.
  /// @returns false when H is not positive definite (a pivot not positive or not finite);
  ///          the factor is then unusable.
  bool Factor(const Eigen::Ref<const Eigen::MatrixXd>& H);

  /// As Factor, of the rows and columns of the whole tree's M (nv x nv) at the coordinates
  /// given to the constructor, read in place.
  bool FactorOfTree(const Eigen::Ref<const Eigen::MatrixXd>& M);

  /// b <- H^-1 b, for each column of b (size() rows; a vector is one column), after a
  /// successful Factor.
  void SolveInPlace(Eigen::Ref<Eigen::MatrixXd> b) const;

  /// The two halves of a solve: b <- L^-T b, then b <- L^-1 b. The first touches only the
  /// ancestors of b's nonzeros, so a sparse b (a constraint's row of two joints) costs their
  /// depth; Z = L^-T G^T gives G M^-1 G^T = Z^T Z.
  void SolveTransposedFactorInPlace(Eigen::Ref<Eigen::MatrixXd> b) const;
  void SolveFactorInPlace(Eigen::Ref<Eigen::MatrixXd> b) const;

 private:
  void SolveTransposedFactor(double* b) const;
  void SolveFactor(double* b) const;

  bool FactorInPlace();
  std::vector<int> coordinates_;  ///< the tree's coordinate of each position
  std::vector<int> parent_;  ///< per coordinate: its parent's position, -1 at a root
  Eigen::MatrixXd L_;        ///< the factor, in its lower triangle (ancestor entries only)
};

}  // namespace twinblocks::multibody
