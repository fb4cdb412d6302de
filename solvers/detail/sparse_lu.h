#pragma once

// The LU factors of one large sparse diagonal block of an iteration matrix, by KLU (Davis &
// Palamadai Natarajan 2010, "Algorithm 907: KLU, a direct sparse solver for circuit
// simulation problems"), from Debian's SuiteSparse.

#include <memory>
#include <vector>

namespace twinblocks::solvers::internal {

/// A square matrix of fixed pattern (compressed columns), factored again and again with new
/// values. The fill-reducing order (AMD) is chosen from the pattern; the first factorization
/// chooses the pivots (and allocates the factors); later ones keep them (KLU's
/// refactorization, which allocates nothing), unless the pivots went bad for the new values
/// (the smallest under 1e-13 of the largest), when it pivots afresh. A mass-spring body's velocity
/// block, 546 x 546 with 4 % nonzeros for a 182-node sphere, factors here in a fraction of a
/// millisecond where dense LU takes tens.
class SparseLu {
 public:
  /// The pattern: column c's rows are row_index[column_start[c] .. column_start[c + 1]),
  /// ascending. Orders the matrix (KLU's analysis); allocates.
  SparseLu(int n, std::vector<int> column_start, std::vector<int> row_index);
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  int size() const { return n_; }
  int num_nonzeros() const { return static_cast<int>(row_index_.size()); }

  /// The values, in the order of row_index: set them, then Factor.
  double* values() { return values_.data(); }

  /// Factors the matrix with the current values. False when it is singular.
  bool Factor();

  /// Solves A y = b in place, with the last Factor's factors (which returned true).
  void Solve(double* b);

  /// Forgets the pivots, so that the next Factor chooses them again (a solver restored from a
  /// snapshot factors as a fresh one).
  void ForgetPivots();

 private:
  struct Klu;  // KLU's objects, kept out of this header
  int n_;
  std::vector<int> column_start_, row_index_;
  std::vector<double> values_;
  std::unique_ptr<Klu> klu_;
};

}  // namespace twinblocks::solvers::internal
