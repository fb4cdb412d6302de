#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "blocks/lookup/detail/breakpoints.h"
#include "blocks/lookup/detail/cubic_spline.h"

namespace twinblocks::blocks::lookup {

/// Most dimensions of a table (Simulink's n-D Lookup Table allows 30).
inline constexpr int kMaxDimensions = 30;

/// How a table gives values between breakpoints (Simulink's "Interpolation method").
enum class Interpolation {
  kFlat,     ///< the value at the breakpoint at or below the input ("use input below")
  kNearest,  ///< the value at the nearest breakpoint; halfway, the upper one
  kLinear,   ///< linear in each dimension between the two neighbouring breakpoints
  kSpline,   ///< the tensor-product cubic spline through all the values
};

/// How a table gives values outside its breakpoints (Simulink's "Extrapolation method").
enum class Extrapolation {
  kClip,    ///< the value at the end breakpoint
  kLinear,  ///< continues the end interval's line (spline: the tangent at the end)
  kSpline,  ///< continues the end interval's cubic (spline interpolation only)
};

/// A table of values on a grid (every combination of the breakpoints of each dimension), with
/// the way it is interpolated and extrapolated: the maths of the lookup-table blocks, free of
/// blocks and ports. Evaluation allocates nothing.
///
/// Values are stored with the first dimension fastest (MATLAB's column-major order): the
/// value at breakpoint indices (i1, ..., id) is values[i1 + n1 (i2 + n2 (i3 + ...))].
///
/// Splines: the values of the tensor-product spline (a 1-D spline along every dimension in
/// turn, a linear operation, so the order does not matter) and its derivatives across every
/// subset of dimensions at the grid points fix it on each cell as a multi-cubic Hermite
/// polynomial. Those derivatives (2^d - 1 arrays of the table's size) are computed once here,
/// by 1-D spline slope solves along the lines of the grid; an evaluation then sums 4^d terms.
class GridInterpolant {
 public:
  /// @pre 1 <= axes.size() <= kMaxDimensions; values.size() is the product of the axes'
  ///   sizes; kSpline extrapolation only with kSpline interpolation. Flat and nearest
  ///   interpolation always clip.
  GridInterpolant(std::vector<Breakpoints> axes, std::vector<double> values,
                  Interpolation interpolation, Extrapolation extrapolation,
                  SplineEnds ends = SplineEnds::kNotAKnot);

  int num_dimensions() const { return static_cast<int>(axes_.size()); }
  const Breakpoints& axis(int j) const { return axes_[j]; }
  const std::vector<double>& values() const { return values_; }
  Interpolation interpolation() const { return interpolation_; }
  Extrapolation extrapolation() const { return extrapolation_; }
  /// True for flat and nearest: the value jumps between cells.
  bool is_piecewise_constant() const {
    return interpolation_ == Interpolation::kFlat || interpolation_ == Interpolation::kNearest;
  }

  /// Evaluate() of a 1-D table with linear interpolation (is_linear_1d()), inline for the
  /// step loop.
  double EvaluateLinear1D(double u, int* hint) const;
  bool is_linear_1d() const { return !segments_.empty(); }

  /// The table at the point u (num_dimensions() values). `hints` (num_dimensions()) holds the
  /// intervals found for the previous point, and receives those found for this one. A NaN
  /// coordinate gives NaN.
  double Evaluate(const double* u, int* hints) const;

  // ---- Piecewise constant tables, cell by cell (a block holds the cells as modes) ----

  /// The cell of u along dimension j, 0 .. n_j - 1: the breakpoint whose value flat or nearest
  /// interpolation takes. Below the first cut cell 0, above the last cell n_j - 1.
  /// @param hint the cell found before
  int Cell(int j, double u, int hint) const;
  /// The input where cell c - 1 ends and cell c starts along dimension j, 1 <= c <= n_j - 1:
  /// breakpoint c (flat) or the midpoint of breakpoints c - 1 and c (nearest).
  double Cut(int j, int c) const;
  /// The value at the breakpoints `cells` (num_dimensions() indices).
  double ValueAtCells(const int* cells) const;

  // ---- Linear interpolation from intervals and fractions (Interpolation Using Prelookup) ----

  /// The multilinear interpolation in the cells k (num_dimensions() intervals, 0 .. n_j - 2) at
  /// the fractions f (0 at breakpoint k, 1 at k + 1; outside [0, 1] extrapolates).
  double Multilinear(const int* k, const double* f) const;

 private:
  double EvaluateSpline(const double* u, int* hints) const;

  std::vector<Breakpoints> axes_;
  std::vector<double> values_;           ///< (n1 x ... x nd), first dimension fastest
  std::vector<std::ptrdiff_t> strides_;  ///< (d) of each dimension in values_
  Interpolation interpolation_;
  Extrapolation extrapolation_;
  /// 1-D linear, per breakpoint (n): where it is, the value there and the slope of the
  /// interval that starts there (the last: of the interval that ends there), side by side so
  /// that an evaluation reads one place, and is one multiplication (Simulink's "linear
  /// point-slope").
  struct Segment {
    double x;
    double y;
    double slope;
  };
  std::vector<Segment> segments_;
  /// Splines: (2^d x size) the derivatives at the grid points across each subset s of the
  /// dimensions (bit j of s set: differentiated along j), subset s at s * size. Subset 0 is
  /// the values themselves.
  std::vector<double> derivatives_;
};

// Inline: the step loop's 1-D lookups call it for every input.
inline double GridInterpolant::EvaluateLinear1D(double u, int* hint) const {
  const Segment* s = segments_.data();
  const int last = axes_[0].size() - 1;
  // Outside, from the end breakpoint itself, so that the table's end value comes back
  // exactly there; a flat end stays flat out to an infinite input (no 0 * inf).
  const bool clip = extrapolation_ == Extrapolation::kClip;
  if (u >= s[last].x || u < s[0].x) {
    const Segment& end = u < s[0].x ? s[0] : s[last];
    *hint = u < s[0].x ? 0 : last - 1;
    return clip || end.slope == 0.0 ? end.y : end.y + end.slope * (u - end.x);
  }
  const Segment& at = s[*hint = axes_[0].Find(u, *hint)];
  return at.y + at.slope * (u - at.x);
}

/// The number of values of a grid with these numbers of breakpoints, or -1 when it exceeds
/// `most` (checked as it is formed, so that no product overflows).
std::ptrdiff_t GridSize(const std::vector<int>& sizes, std::ptrdiff_t most);

}  // namespace twinblocks::blocks::lookup
