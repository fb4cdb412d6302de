#pragma once

#include <cstddef>
#include <vector>

namespace twinblocks::blocks::lookup {

/// End conditions of an interpolating cubic spline.
enum class SplineEnds {
  /// The third derivative is continuous at the second and the second-to-last breakpoints:
  /// the first two and the last two intervals are one cubic each (MATLAB's spline and
  /// interp1 'spline'). A cubic is its own not-a-knot spline.
  kNotAKnot,
  /// The second derivative is 0 at both ends.
  kNatural,
};

/// The slopes, at the breakpoints, of the interpolating cubic spline (C2, one cubic per
/// interval) through values at fixed breakpoints. The breakpoints fix a tridiagonal system
/// for the second derivatives, factored once here (Thomas algorithm: the system is diagonally
/// dominant, so no pivoting); each set of values then costs one O(n) solve. With 2
/// breakpoints the spline is the line through them; with 3 and not-a-knot it is the parabola
/// through them (the two conditions coincide), as MATLAB's spline does.
class SplineSlopes {
 public:
  /// @pre x (n >= 2) is strictly increasing
  SplineSlopes(const std::vector<double>& x, SplineEnds ends);

  /// Writes the spline's slope at every breakpoint to m (n values, `m_stride` apart), for the
  /// values y (n values, `y_stride` apart). Allocates its scratch: for constructors.
  void Calc(const double* y, std::ptrdiff_t y_stride, double* m, std::ptrdiff_t m_stride) const;

 private:
  int n_ = 0;
  SplineEnds ends_;
  std::vector<double> h_;  ///< (n - 1) interval widths
  // The system for the interior second derivatives M1..M(n-2), row r for M(r+1): sub_[r]
  // M(r) + diag M(r+1) + sup M(r+2) = rhs. Kept factored: sup_ holds the eliminated
  // super-diagonal c'(r), pivot_ the pivots b(r) - a(r) c'(r-1).
  std::vector<double> sub_, sup_, pivot_;
};

}  // namespace twinblocks::blocks::lookup
