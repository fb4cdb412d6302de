#include "blocks/delay/detail/delay_history.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "blocks/block_error.h"
#include "common/suggest.h"

namespace twinblocks::blocks::internal {

// The interpolant's degree. For a sine of w rad/s sampled at steps h, a cubic's error is
// about (w h)^4 / 40 and a quintic's (w h)^6 / 200: 6e-4 against 2e-5 at the w h = 0.4 of
// ode45's longest default steps (t_end / 50, at 2 rad/s over 10 s), 2e-6 against 5e-9 at
// w h = 0.1. On the sines of tests/blocks/delay/transport_delay_test.cc under ode45 at rtol
// 1e-8, a cubic measured 4e-5 (1 rad/s) and 6e-4 (2 rad/s), 1.1e-6 at best (atol 1e-10, a
// model that follows the sine); the quintic 4e-7, 3e-5 and 2e-8.
constexpr int kDegree = 5;

void DelayHistory::Clear(double* dw) const {
  dw[0] = 0.0;
  dw[1] = 0.0;
}

bool DelayHistory::Append(double* dw, double t, const double* u, int u_stride,
                          double keep_from) const {
  int n = count(dw);
  // A second major step at the same time (after an event) brings the value that holds from
  // then on: it replaces the first.
  while (n > 0 && time(dw, n - 1) >= t) --n;
  int head = static_cast<int>(dw[0]);
  if (n == capacity_) {
    if (!(time(dw, 1) <= keep_from)) return false;
    head = head + 1 == capacity_ ? 0 : head + 1;
    --n;
  }
  int slot = head + n;
  if (slot >= capacity_) slot -= capacity_;
  dw[0] = head;
  dw[1] = n + 1;
  dw[2 + slot] = t;
  double* v = dw + 2 + capacity_ + static_cast<std::int64_t>(slot) * width_;
  for (int i = 0; i < width_; ++i) v[i] = u[i * u_stride];
  return true;
}

int DelayHistory::Locate(const double* dw, double q) const {
  int lo = 0;
  int hi = count(dw) - 1;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (time(dw, mid) <= q) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

int DelayHistory::Bracket(const double* dw, double q) const {
  const int n = count(dw);
  if (q <= time(dw, 0)) return -1;
  if (q >= time(dw, n - 1)) return n - 1;
  return Locate(dw, q);
}

double DelayHistory::Interpolate(const double* dw, int j, double q, int i) const {
  // The samples the stencil may grow into: kDegree - 1 either side of the interval [j, j + 1].
  constexpr int kMax = 2 * kDegree;
  const int a = std::max(0, j - (kDegree - 1));
  const int m = std::min(count(dw) - 1, j + kDegree) - a + 1;
  double t[kMax];
  // dd[r][k]: divided difference of order r over samples k .. k + r (local indices).
  double dd[kDegree + 1][kMax];
  for (int k = 0; k < m; ++k) {
    t[k] = time(dw, a + k);
    dd[0][k] = values(dw, a + k)[i];
  }
  for (int r = 1; r <= kDegree; ++r) {
    for (int k = 0; k + r < m; ++k)
      dd[r][k] = (dd[r - 1][k + 1] - dd[r - 1][k]) / (t[k + r] - t[k]);
  }
  // Newton's form over the interval's two samples, then growing by the neighbour of smaller
  // divided difference: a jump makes its side's differences large, so the stencil leaves it.
  const int first = j - a;
  int lo = first;
  int hi = lo + 1;
  double value = dd[0][lo] + dd[1][lo] * (q - t[lo]);
  double product = (q - t[lo]) * (q - t[hi]);
  double low = std::min(dd[0][lo], dd[0][hi]);
  double high = std::max(dd[0][lo], dd[0][hi]);
  for (int r = 2; r <= kDegree; ++r) {
    const bool left = lo >= 1;
    const bool right = hi + 1 < m;
    if (!left && !right) break;
    const bool go_left = left && (!right || std::abs(dd[r][lo - 1]) <= std::abs(dd[r][lo]));
    const int added = go_left ? lo - 1 : hi + 1;
    const double next = dd[r][go_left ? lo - 1 : lo];
    if (!(left && right)) {
      // Near the ends of the history one side may be missing, and growing to the other is
      // forced: across a jump it would carry the jump into the interval, amplified. The
      // sample to add is that far from the polynomial so far: on a smooth input by less
      // than the stencil's values vary, across a jump by the jump. Then the degree reached
      // is kept.
      double miss = next;
      for (int k = lo; k <= hi; ++k) miss *= t[added] - t[k];
      if (std::abs(miss) > high - low) break;
    }
    value += next * product;
    product *= q - t[added];
    lo = std::min(lo, added);
    hi = std::max(hi, added);
    low = std::min(low, dd[0][added]);
    high = std::max(high, dd[0][added]);
  }
  // Where features are narrower than the stencil (a pulse shorter than six steps) every
  // stencil crosses a jump, and the polynomial overshoots. Bound it by the interval's two
  // samples, widened by what a smooth input can bulge between them, |u''| h^2 / 8 (here
  // twice that): with u'' / 2 taken as the smallest second divided difference around the
  // interval, a plateau next to a jump, or a jump between plateaus, gets no bulge at all.
  double curvature = std::numeric_limits<double>::infinity();
  for (int k = std::max(0, first - 2); k <= first + 1 && k + 2 < m; ++k) {
    curvature = std::min(curvature, std::abs(dd[2][k]));
  }
  if (curvature < std::numeric_limits<double>::infinity()) {
    const double h = t[first + 1] - t[first];
    const double bulge = curvature * h * h / 2.0;
    const double f0 = dd[0][first], f1 = dd[0][first + 1];
    value = std::max(std::min(f0, f1) - bulge, std::min(value, std::max(f0, f1) + bulge));
  }
  return value;
}

double DelayHistory::ReadLocated(const double* dw, int j, double q, int i) const {
  const int n = count(dw);
  if (j < 0) return values(dw, 0)[i];
  if (j < n - 1) return Interpolate(dw, j, q, i);
  // At or past the newest sample (a delay shorter than the step): the line through the last
  // two, as Simulink's Transport Delay extrapolates; exact at the newest sample itself.
  const double v1 = values(dw, n - 1)[i];
  if (n == 1) return v1;
  const double t1 = time(dw, n - 1);
  const double t0 = time(dw, n - 2);
  const double v0 = values(dw, n - 2)[i];
  return q == t1 ? v1 : v1 + (v1 - v0) * ((q - t1) / (t1 - t0));
}

void DelayHistory::Read(const double* dw, double q, double* y) const {
  const int j = Bracket(dw, q);
  for (int i = 0; i < width_; ++i) y[i] = ReadLocated(dw, j, q, i);
}

double DelayHistory::ReadElement(const double* dw, double q, int i) const {
  return ReadLocated(dw, Bracket(dw, q), q, i);
}

}  // namespace twinblocks::blocks::internal

namespace twinblocks::blocks::internal {

int DelayBufferSize(double value) {
  if (!(value >= 6.0) || value != std::floor(value) || value > 1e9) {
    throw BlockError(
        "parameter 'buffer_size' must be a whole number of samples from 6 (the quintic "
        "interpolation's) to 1e9, got " +
            graph::FormatNumber(value),
        "buffer_size");
  }
  return static_cast<int>(value);
}

std::string FullHistoryMessage(const DelayHistory& history, const double* dw, double needed,
                               const char* param) {
  const int n = history.count(dw);
  const double span = history.time(dw, n - 1) - history.time(dw, 0);
  // Samples per second so far, over the input the delay needs, with a margin for shorter
  // steps ahead.
  const double estimate = span > 0.0 ? 1.5 * n * needed / span + 4.0 : 2.0 * n;
  return "the delay's history of buffer_size = " + std::to_string(history.capacity()) +
         " samples is full: they span " + graph::FormatNumber(span) +
         " s of input (from t = " + graph::FormatNumber(history.time(dw, 0)) +
         " s), less than the " + graph::FormatNumber(needed) + " s (" + param +
         ") the block may still read, at the steps the solver takes; raise buffer_size to "
         "about " +
         graph::FormatNumber(std::ceil(estimate)) + " or more";
}

}  // namespace twinblocks::blocks::internal
