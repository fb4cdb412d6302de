#include "solvers/detail/sparse_lu.h"

#include <klu.h>

#include <cmath>
#include <stdexcept>
#include <utility>

namespace twinblocks::solvers::internal {
namespace {

// The smallest ratio of the smallest pivot to the largest that a refactorization with the
// kept pivots may give before the matrix is pivoted afresh.
constexpr double kMinPivotRatio = 1e-13;

}  // namespace

struct SparseLu::Klu {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;

  ~Klu() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
};

SparseLu::SparseLu(int n, std::vector<int> column_start, std::vector<int> row_index)
    : n_(n),
      column_start_(std::move(column_start)),
      row_index_(std::move(row_index)),
      values_(row_index_.size(), 0.0),
      klu_(std::make_unique<Klu>()) {
  klu_defaults(&klu_->common);
  // The block is one strongly connected component already (IterationMatrix's order): no
  // block triangular form of KLU's own.
  klu_->common.btf = 0;
  klu_->symbolic = klu_analyze(n_, column_start_.data(), row_index_.data(), &klu_->common);
  if (klu_->symbolic == nullptr) {
    throw std::runtime_error("the sparse factorization could not order a block of " +
                             std::to_string(n_) + " states");
  }
}

SparseLu::~SparseLu() = default;

bool SparseLu::Factor() {
  klu_common& common = klu_->common;
  if (klu_->numeric != nullptr) {
    // Same pivots, new values; kept while the smallest pivot holds up against the largest.
    if (klu_refactor(column_start_.data(), row_index_.data(), values_.data(), klu_->symbolic,
                     klu_->numeric, &common) != 0 &&
        klu_rcond(klu_->symbolic, klu_->numeric, &common) != 0 && common.rcond >= kMinPivotRatio &&
        std::isfinite(common.rcond)) {
      return true;
    }
    klu_free_numeric(&klu_->numeric, &common);
  }
  klu_->numeric =
      klu_factor(column_start_.data(), row_index_.data(), values_.data(), klu_->symbolic, &common);
  if (klu_->numeric == nullptr || common.status != KLU_OK) return false;
  if (klu_rcond(klu_->symbolic, klu_->numeric, &common) == 0 || !(common.rcond > 0.0)) {
    klu_free_numeric(&klu_->numeric, &common);
    return false;
  }
  return true;
}

void SparseLu::Solve(double* b) {
  klu_solve(klu_->symbolic, klu_->numeric, n_, 1, b, &klu_->common);
}

void SparseLu::ForgetPivots() {
  if (klu_->numeric != nullptr) klu_free_numeric(&klu_->numeric, &klu_->common);
}

}  // namespace twinblocks::solvers::internal
