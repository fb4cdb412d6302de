#pragma once

#include <string>
#include <vector>

namespace twinblocks::blocks::lookup {

/// The breakpoints of one dimension of a lookup table: at least two finite values, strictly
/// increasing (checked), and an index that finds the interval holding an input in O(1) for
/// any spacing that is not extremely uneven.
///
/// The index splits [x0, x(n-1)] into n - 1 buckets of equal width and keeps, per bucket, the
/// first interval that may hold an input falling in it. An input's bucket is one multiplication
/// away; the intervals it may lie in are then those from its bucket's first to the next
/// bucket's: one for evenly spaced breakpoints, a few for uneven ones, searched by bisection.
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
  /// (n) Per bucket b, the number of breakpoints whose bucket is below b (the last entry, for
  /// b = n - 1, closes the last bucket). An input in bucket b lies in an interval from
  /// below_[b] - 1 to below_[b+1] - 1.
  std::vector<int> below_;
};

}  // namespace twinblocks::blocks::lookup
