#include "blocks/lookup/detail/grid_interpolant.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace twinblocks::blocks::lookup {

namespace {

/// Where an input falls along one dimension of a spline: the weights of the values (a) and of
/// the slopes (b, times the interval's width) at the interval's two ends.
struct HermiteWeights {
  double a[2];
  double b[2];
};

HermiteWeights SplineWeights(double t, double h, Extrapolation extrapolation) {
  HermiteWeights w;
  if ((t < 0.0 || t > 1.0) && extrapolation != Extrapolation::kSpline) {
    if (extrapolation == Extrapolation::kClip) {
      t = t < 0.0 ? 0.0 : 1.0;
    } else {
      // The tangent at the end: the cubic's weights replaced by their first-order Taylor
      // expansion there (at t = 0 the value weight 1 and the slope weight t h; likewise at 1).
      const bool below = t < 0.0;
      w.a[0] = below ? 1.0 : 0.0;
      w.a[1] = below ? 0.0 : 1.0;
      w.b[0] = below ? t * h : 0.0;
      w.b[1] = below ? 0.0 : (t - 1.0) * h;
      return w;
    }
  }
  const double s = 1.0 - t;
  w.a[0] = (1.0 + 2.0 * t) * s * s;
  w.a[1] = t * t * (3.0 - 2.0 * t);
  w.b[0] = t * s * s * h;
  w.b[1] = -t * t * s * h;
  return w;
}

}  // namespace

std::ptrdiff_t GridSize(const std::vector<int>& sizes, std::ptrdiff_t most) {
  std::ptrdiff_t size = 1;
  for (int n : sizes) {
    if (n <= 0 || size > most / n) return -1;
    size *= n;
  }
  return size <= most ? size : -1;
}

GridInterpolant::GridInterpolant(std::vector<Breakpoints> axes, std::vector<double> values,
                                 Interpolation interpolation, Extrapolation extrapolation,
                                 SplineEnds ends)
    : axes_(std::move(axes)),
      values_(std::move(values)),
      interpolation_(interpolation),
      extrapolation_(extrapolation) {
  const int d = num_dimensions();
  if (d < 1 || d > kMaxDimensions) throw std::logic_error("GridInterpolant: 1 to 30 dimensions");
  std::ptrdiff_t size = 1;
  for (const Breakpoints& a : axes_) {
    strides_.push_back(size);
    size *= a.size();
  }
  if (static_cast<std::ptrdiff_t>(values_.size()) != size) {
    throw std::logic_error("GridInterpolant: the values do not fill the grid");
  }
  if (extrapolation_ == Extrapolation::kSpline && interpolation_ != Interpolation::kSpline) {
    throw std::logic_error("GridInterpolant: spline extrapolation needs spline interpolation");
  }
  if (is_piecewise_constant()) extrapolation_ = Extrapolation::kClip;
  if (interpolation_ == Interpolation::kLinear && d == 1) {
    const Breakpoints& x = axes_[0];
    const int n = x.size();
    segments_.resize(n);
    for (int k = 0; k < n; ++k) {
      const int i = k + 1 < n ? k : k - 1;  // the interval whose slope it is
      segments_[k] = {x[k], values_[k], (values_[i + 1] - values_[i]) / (x[i + 1] - x[i])};
    }
  }
  if (interpolation_ == Interpolation::kSpline) {
    const std::ptrdiff_t subsets = std::ptrdiff_t{1} << d;
    derivatives_.assign(subsets * size, 0.0);
    std::copy(values_.begin(), values_.end(), derivatives_.begin());
    std::vector<SplineSlopes> slopes;
    for (const Breakpoints& a : axes_) slopes.emplace_back(a.values(), ends);
    // Subset s differentiates subset s without its lowest dimension j along j, line by line.
    for (std::ptrdiff_t s = 1; s < subsets; ++s) {
      int j = 0;
      while (((s >> j) & 1) == 0) ++j;
      const double* from = derivatives_.data() + (s & ~(std::ptrdiff_t{1} << j)) * size;
      double* to = derivatives_.data() + s * size;
      const std::ptrdiff_t stride = strides_[j];
      const int n = axes_[j].size();
      for (std::ptrdiff_t o = 0; o < size; ++o) {
        if ((o / stride) % n == 0) slopes[j].Calc(from + o, stride, to + o, stride);
      }
    }
  }
}

double GridInterpolant::Evaluate(const double* u, int* hints) const {
  const int d = num_dimensions();
  if (is_piecewise_constant()) {
    int cells[kMaxDimensions];
    for (int j = 0; j < d; ++j) {
      if (std::isnan(u[j])) return std::numeric_limits<double>::quiet_NaN();
      cells[j] = hints[j] = Cell(j, u[j], hints[j]);
    }
    return ValueAtCells(cells);
  }
  if (interpolation_ == Interpolation::kSpline) return EvaluateSpline(u, hints);
  if (d == 1) return EvaluateLinear1D(u[0], hints);
  int k[kMaxDimensions];
  double f[kMaxDimensions];
  const bool clip = extrapolation_ == Extrapolation::kClip;
  for (int j = 0; j < d; ++j) {
    k[j] = hints[j] = axes_[j].Find(u[j], hints[j]);
    double fj = axes_[j].Fraction(u[j], k[j]);
    if (clip) fj = fj < 0.0 ? 0.0 : (fj > 1.0 ? 1.0 : fj);
    f[j] = fj;
  }
  return Multilinear(k, f);
}

double GridInterpolant::EvaluateSpline(const double* u, int* hints) const {
  const int d = num_dimensions();
  HermiteWeights w[kMaxDimensions];
  std::ptrdiff_t base = 0;
  for (int j = 0; j < d; ++j) {
    if (std::isnan(u[j])) return std::numeric_limits<double>::quiet_NaN();
    const Breakpoints& x = axes_[j];
    const int k = hints[j] = x.Find(u[j], hints[j]);
    w[j] = SplineWeights(x.Fraction(u[j], k), x[k + 1] - x[k], extrapolation_);
    base += k * strides_[j];
  }
  const std::ptrdiff_t size = static_cast<std::ptrdiff_t>(values_.size());
  const double* D = derivatives_.data();
  if (d == 1) {
    return w[0].a[0] * D[base] + w[0].a[1] * D[base + 1] + w[0].b[0] * D[size + base] +
           w[0].b[1] * D[size + base + 1];
  }
  // Every corner c of the cell and every subset s of derivatives: bit j of c picks the end
  // of the interval along j, bit j of s a slope instead of a value there.
  const unsigned count = 1u << d;
  double sum = 0.0;
  for (unsigned c = 0; c < count; ++c) {
    for (unsigned s = 0; s < count; ++s) {
      double weight = 1.0;
      std::ptrdiff_t at = base + s * size;
      for (int j = 0; j < d; ++j) {
        const int up = (c >> j) & 1;
        weight *= ((s >> j) & 1) ? w[j].b[up] : w[j].a[up];
        if (up) at += strides_[j];
      }
      sum += weight * D[at];
    }
  }
  return sum;
}

int GridInterpolant::Cell(int j, double u, int hint) const {
  const Breakpoints& x = axes_[j];
  const int last = x.last_interval();
  const int k = x.Find(u, hint > last ? last : hint);
  if (interpolation_ == Interpolation::kFlat) return k == last && u >= x[last + 1] ? last + 1 : k;
  return u >= Cut(j, k + 1) ? k + 1 : k;
}

double GridInterpolant::Cut(int j, int c) const {
  const Breakpoints& x = axes_[j];
  if (interpolation_ == Interpolation::kFlat) return x[c];
  return x[c - 1] + 0.5 * (x[c] - x[c - 1]);  // no overflow for breakpoints near the limits
}

double GridInterpolant::ValueAtCells(const int* cells) const {
  std::ptrdiff_t at = 0;
  for (int j = 0; j < num_dimensions(); ++j) at += cells[j] * strides_[j];
  return values_[at];
}

double GridInterpolant::Multilinear(const int* k, const double* f) const {
  const int d = num_dimensions();
  const double* v = values_.data();
  std::ptrdiff_t base = 0;
  for (int j = 0; j < d; ++j) base += k[j] * strides_[j];
  // (1 - f) a + f b rather than a + f (b - a): the breakpoints' values come back exactly.
  if (d == 1) return (1.0 - f[0]) * v[base] + f[0] * v[base + 1];
  if (d == 2) {
    const std::ptrdiff_t s = strides_[1];
    const double lo = (1.0 - f[0]) * v[base] + f[0] * v[base + 1];
    const double hi = (1.0 - f[0]) * v[base + s] + f[0] * v[base + s + 1];
    return (1.0 - f[1]) * lo + f[1] * hi;
  }
  const unsigned count = 1u << d;
  double sum = 0.0;
  for (unsigned c = 0; c < count; ++c) {
    double weight = 1.0;
    std::ptrdiff_t at = base;
    for (int j = 0; j < d; ++j) {
      if ((c >> j) & 1) {
        weight *= f[j];
        at += strides_[j];
      } else {
        weight *= 1.0 - f[j];
      }
    }
    sum += weight * v[at];
  }
  return sum;
}

}  // namespace twinblocks::blocks::lookup
