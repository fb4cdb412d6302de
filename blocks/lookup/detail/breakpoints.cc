#include "blocks/lookup/detail/breakpoints.h"

#include <cmath>
#include <utility>

#include "blocks/block_error.h"
#include "common/format_value.h"

namespace twinblocks::blocks::lookup {

Breakpoints::Breakpoints(std::vector<double> x, const std::string& what, const std::string& param)
    : x_(std::move(x)) {
  const int n = size();
  if (n < 2) {
    throw BlockError(what + " must hold at least 2 breakpoints, got " + std::to_string(n), param);
  }
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x_[i])) {
      throw BlockError(what + ": breakpoint " + std::to_string(i + 1) + " is " +
                           FormatValue(x_[i]) + ", not a finite number",
                       param);
    }
    if (i > 0 && !(x_[i] > x_[i - 1])) {
      throw BlockError(what + " must be strictly increasing: breakpoint " + std::to_string(i + 1) +
                           " (" + FormatValue(x_[i]) + ") is not above breakpoint " +
                           std::to_string(i) + " (" + FormatValue(x_[i - 1]) + ")",
                       param);
    }
  }
  last_ = n - 2;
  // n - 1 buckets. A range so wide that it overflows makes the scale 0 (one bucket: plain
  // bisection); one so narrow that the scale overflows puts every input past the first
  // breakpoint in the last bucket, which Bucket() reaches without converting infinity.
  const int buckets = n - 1;
  bucket_scale_ = buckets / (x_[n - 1] - x_[0]);
  if (!std::isfinite(bucket_scale_)) bucket_scale_ = 0.0;
  below_.assign(n, 0);
  // below_[b] counts the breakpoints whose bucket is below b; the buckets of sorted
  // breakpoints do not decrease, so one pass fills it.
  int k = 0;
  for (int b = 0; b < n; ++b) {
    while (k < n && Bucket(x_[k]) < b) ++k;
    below_[b] = k;
  }
}

int Breakpoints::Bucket(double u) const {
  // The same arithmetic for breakpoints and inputs: rounding is monotonic, so an input at or
  // above a breakpoint never lands in an earlier bucket than the breakpoint does.
  const double s = (u - x_[0]) * bucket_scale_;
  const int buckets = last_ + 1;
  return s < buckets ? static_cast<int>(s) : buckets - 1;
}

int Breakpoints::Find(double u) const {
  const double* x = x_.data();
  if (!(u >= x[1])) return 0;
  if (u >= x[last_]) return last_;
  // x[1] <= u < x[n-2]. Every breakpoint in an earlier bucket than u's is below u, every one
  // in a later bucket above it: the interval lies between.
  const int b = Bucket(u);
  int lo = below_[b] - 1;
  int hi = below_[b + 1] - 1;
  if (lo < 0) lo = 0;
  if (hi > last_) hi = last_;
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
