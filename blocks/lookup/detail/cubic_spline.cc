#include "blocks/lookup/detail/cubic_spline.h"

namespace twinblocks::blocks::lookup {

// In terms of the second derivatives M(i) at the breakpoints, with h(i) = x(i+1) - x(i) and
// the slopes of the chords d(i) = (y(i+1) - y(i)) / h(i), continuity of the first derivative
// at the interior breakpoints gives, for i = 1 .. n-2,
//   h(i-1) M(i-1) + 2 (h(i-1) + h(i)) M(i) + h(i) M(i+1) = 6 (d(i) - d(i-1)).
// natural: M(0) = M(n-1) = 0. not-a-knot: equal third derivatives on the first two intervals,
// (M(1) - M(0)) / h(0) = (M(2) - M(1)) / h(1), gives M(0) = ((h0 + h1) M1 - h0 M2) / h1, which
// substituted into row 1 makes it
//   (h0 + h1)(h0 + 2 h1) / h1 M1 + (h1^2 - h0^2) / h1 M2 = 6 (d1 - d0),
// and likewise at the other end. Both keep the system diagonally dominant.
SplineSlopes::SplineSlopes(const std::vector<double>& x, SplineEnds ends)
    : n_(static_cast<int>(x.size())), ends_(ends) {
  h_.resize(n_ - 1);
  for (int i = 0; i + 1 < n_; ++i) h_[i] = x[i + 1] - x[i];
  const bool system = n_ >= 4 || (n_ == 3 && ends_ == SplineEnds::kNatural);
  if (!system) return;  // a line or a parabola: closed forms in Calc
  const int m = n_ - 2;
  std::vector<double> diag(m);
  sub_.assign(m, 0.0);
  sup_.assign(m, 0.0);
  pivot_.assign(m, 0.0);
  for (int r = 0; r < m; ++r) {
    const double hl = h_[r], hr = h_[r + 1];  // the intervals left and right of x(r+1)
    sub_[r] = hl;
    diag[r] = 2.0 * (hl + hr);
    sup_[r] = hr;
  }
  if (ends_ == SplineEnds::kNotAKnot) {
    const double h0 = h_[0], h1 = h_[1];
    diag[0] = (h0 + h1) * (h0 + 2.0 * h1) / h1;
    sup_[0] = (h1 * h1 - h0 * h0) / h1;
    const double ha = h_[n_ - 3], hb = h_[n_ - 2];  // the last two intervals
    diag[m - 1] = (hb + ha) * (hb + 2.0 * ha) / ha;
    sub_[m - 1] = (ha * ha - hb * hb) / ha;
  }
  sub_[0] = 0.0;
  sup_[m - 1] = 0.0;
  // Forward elimination, once: the pivots and the eliminated super-diagonal.
  pivot_[0] = diag[0];
  for (int r = 1; r < m; ++r) {
    sup_[r - 1] /= pivot_[r - 1];
    pivot_[r] = diag[r] - sub_[r] * sup_[r - 1];
  }
}

void SplineSlopes::Calc(const double* y, std::ptrdiff_t y_stride, double* m,
                        std::ptrdiff_t m_stride) const {
  const int n = n_;
  auto Y = [&](int i) { return y[i * y_stride]; };
  std::vector<double> d(n - 1);  // chord slopes
  for (int i = 0; i + 1 < n; ++i) d[i] = (Y(i + 1) - Y(i)) / h_[i];
  std::vector<double> M(n, 0.0);  // second derivatives
  if (n == 3 && ends_ == SplineEnds::kNotAKnot) {
    // The parabola: constant second derivative, twice the second divided difference.
    M[0] = M[1] = M[2] = 2.0 * (d[1] - d[0]) / (h_[0] + h_[1]);
  } else if (n >= 3) {
    const int rows = n - 2;
    // Forward substitution then back substitution on the factored system.
    std::vector<double> z(rows);
    for (int r = 0; r < rows; ++r) {
      const double rhs = 6.0 * (d[r + 1] - d[r]);
      z[r] = (rhs - (r > 0 ? sub_[r] * z[r - 1] : 0.0)) / pivot_[r];
    }
    for (int r = rows - 1; r >= 0; --r) {
      M[r + 1] = z[r] - (r + 1 < rows ? sup_[r] * M[r + 2] : 0.0);
    }
    if (ends_ == SplineEnds::kNotAKnot) {
      const double h0 = h_[0], h1 = h_[1];
      M[0] = ((h0 + h1) * M[1] - h0 * M[2]) / h1;
      const double ha = h_[n - 3], hb = h_[n - 2];
      M[n - 1] = ((ha + hb) * M[n - 2] - hb * M[n - 3]) / ha;
    }
  }
  // The slope at the left end of each interval, and at the right end of the last one, of the
  // cubic with those values and second derivatives.
  for (int i = 0; i + 1 < n; ++i) {
    m[i * m_stride] = d[i] - h_[i] * (2.0 * M[i] + M[i + 1]) / 6.0;
  }
  m[(n - 1) * m_stride] = d[n - 2] + h_[n - 2] * (M[n - 2] + 2.0 * M[n - 1]) / 6.0;
}

}  // namespace twinblocks::blocks::lookup
