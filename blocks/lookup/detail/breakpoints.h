#pragma once

#include <string>
#include <vector>

namespace twinblocks::blocks::lookup {

/// The breakpoints of one dimension of a lookup table: at least two finite values, strictly
/// increasing (checked), and an index that finds the interval holding an input in O(1) for
/// any spacing that is not extremely uneven.
///
/// The index splits [x0, x(n-1)] into n - 1 buckets of equal width and keeps, per bucket,
/// the range of intervals an input falling in it may lie in, and the breakpoint between them
/// when they are two. An input's bucket is one multiplication away; evenly spaced breakpoints
/// leave one interval per bucket, uneven ones mostly one or two (decided by one comparison),
/// and a few more where breakpoints crowd (searched by bisection).
/// Breakpoints crowded into a few buckets (a logarithmic grid over decades) make that
/// bisection longer, never longer than over all of them.
class Breakpoints {
 public:
  /// @param x the breakpoints, (n)
  /// @param what names them in messages ("parameter 'breakpoints'", "column 1 of 'map.csv'")
  /// @param param the parameter a BlockError names
  /// @throws BlockError naming `what` unless n >= 2 and the values are finite and strictly
  ///   increasing
  Breakpoints(std::vector<double> x, const std::string& what, const std::string& param);

  int size() const { return static_cast<int>(x_.size()); }
  /// The index of the last interval, n - 2.
  int last_interval() const { return last_; }
  double operator[](int i) const { return x_[i]; }
  const std::vector<double>& values() const { return x_; }

  /// The interval k, 0 <= k <= n - 2, with x[k] <= u < x[k+1]; 0 for u below x[1] (and for a
  /// NaN), n - 2 for u at or above x[n-2]: the end intervals extend outward, so that the
  /// fraction of an input outside the breakpoints is below 0 or above 1 (extrapolation).
  int Find(double u) const;

  /// Find(u) that first tries `hint`, the interval found for the previous input (Simulink's
  /// "begin index search using previous index result"): an input that moves smoothly stays
  /// in it most of the time. Any hint gives the same result; one out of range is ignored.
  int Find(double u, int hint) const {
    if (static_cast<unsigned>(hint) <= static_cast<unsigned>(last_) &&
        (hint == 0 || x_[hint] <= u) && (hint == last_ || u < x_[hint + 1])) {
      return hint;
    }
    return Find(u);
  }

  /// (u - x[k]) / (x[k+1] - x[k]): where u lies in interval k, 0 at its start, 1 at its end.
  double Fraction(double u, int k) const { return (u - x_[k]) / (x_[k + 1] - x_[k]); }

 private:
  /// The bucket of u >= x[0], 0 to n - 2.
  int Bucket(double u) const;

  std::vector<double> x_;  ///< (n)
  int last_ = 0;           ///< n - 2
  /// Buckets per unit of the input, (n - 1) / (x[n-1] - x[0]).
  double bucket_scale_ = 0.0;
  /// The intervals an input in one bucket may lie in, lo to hi; `split` is x[lo + 1] when hi
  /// is lo + 1 (the interval is then lo below it, hi at or above it), +inf when hi is lo.
  struct BucketRange {
    int lo = 0;
    int hi = 0;
    double split = 0.0;
  };
  std::vector<BucketRange> buckets_;  ///< (n - 1)
};

// Inline: the step loop's lookups call these for every input.
inline int Breakpoints::Bucket(double u) const {
  // The same arithmetic for breakpoints and inputs: rounding is monotonic, so an input at or
  // above a breakpoint never lands in an earlier bucket than the breakpoint does.
  const double s = (u - x_[0]) * bucket_scale_;
  const int buckets = last_ + 1;
  return s < buckets ? static_cast<int>(s) : buckets - 1;
}

inline int Breakpoints::Find(double u) const {
  const double* x = x_.data();
  if (!(u >= x[1])) return 0;
  if (u >= x[last_]) return last_;
  // x[1] <= u < x[n-2]. Most buckets leave one or two intervals: decided without reading x.
  const BucketRange& e = buckets_[Bucket(u)];
  int lo = e.lo;
  int hi = e.hi;
  if (hi - lo <= 1) return lo + (u >= e.split ? 1 : 0);
  // x[lo] <= u holds: the largest such k in [lo, hi].
  while (lo < hi) {
    const int mid = (lo + hi + 1) >> 1;
    if (x[mid] <= u) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

}  // namespace twinblocks::blocks::lookup
