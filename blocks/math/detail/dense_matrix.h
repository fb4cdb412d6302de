#pragma once

#include <cmath>
#include <string>
#include <utility>

/// Small dense matrices stored row by row (as matrix signals are), for the matrix blocks' step
/// loops: no allocation, the caller gives every buffer.
namespace twinblocks::blocks::internal {

/// "2x3", for messages.
inline std::string DimsText(int rows, int cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// c (r x n) = a (r x k) * b (k x n). `c` must not overlap `a` or `b`.
inline void MultiplyRowMajor(const double* a, const double* b, int r, int k, int n, double* c) {
  for (int i = 0; i < r; ++i) {
    double* ci = c + i * n;
    for (int j = 0; j < n; ++j) ci[j] = 0.0;
    for (int l = 0; l < k; ++l) {
      const double ail = a[i * k + l];
      const double* bl = b + l * n;
      for (int j = 0; j < n; ++j) ci[j] += ail * bl[j];
    }
  }
}

/// inv (n x n) = a^-1 by Gauss-Jordan elimination with partial pivoting; `a` is overwritten.
/// @return false when a pivot is zero (a is singular); `inv` then holds no inverse.
inline bool InvertRowMajor(double* a, int n, double* inv) {
  for (int i = 0; i < n * n; ++i) inv[i] = 0.0;
  for (int i = 0; i < n; ++i) inv[i * n + i] = 1.0;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r) {
      if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
    }
    const double p = a[pivot * n + col];
    if (p == 0.0 || !std::isfinite(p)) return false;
    if (pivot != col) {
      for (int j = 0; j < n; ++j) {
        std::swap(a[pivot * n + j], a[col * n + j]);
        std::swap(inv[pivot * n + j], inv[col * n + j]);
      }
    }
    const double scale = 1.0 / p;
    for (int j = 0; j < n; ++j) {
      a[col * n + j] *= scale;
      inv[col * n + j] *= scale;
    }
    for (int r = 0; r < n; ++r) {
      const double f = a[r * n + col];
      if (r == col || f == 0.0) continue;
      for (int j = 0; j < n; ++j) {
        a[r * n + j] -= f * a[col * n + j];
        inv[r * n + j] -= f * inv[col * n + j];
      }
    }
  }
  return true;
}

}  // namespace twinblocks::blocks::internal
