#include "blocks/lookup/detail/breakpoints.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
  // below[b] counts the breakpoints whose bucket is below b; the buckets of sorted breakpoints
  // do not decrease, so one pass fills it. Every breakpoint in an earlier bucket than an
  // input's is below the input, every one in a later bucket above it: an input in bucket b
  // lies in an interval from below[b] - 1 to below[b+1] - 1.
  std::vector<int> below(n, 0);
  int k = 0;
  for (int b = 0; b < n; ++b) {
    while (k < n && Bucket(x_[k]) < b) ++k;
    below[b] = k;
  }
  buckets_.resize(buckets);
  for (int b = 0; b < buckets; ++b) {
    BucketRange& e = buckets_[b];
    e.lo = std::max(below[b] - 1, 0);
    e.hi = std::min(below[b + 1] - 1, last_);
    e.split = e.hi == e.lo + 1 ? x_[e.hi] : std::numeric_limits<double>::infinity();
  }
}

}  // namespace twinblocks::blocks::lookup
