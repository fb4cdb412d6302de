#pragma once

#include <cstdint>
#include <string>

namespace twinblocks::blocks::internal {

/// The input history of a transport delay: (t, u) samples taken at major steps, kept in a
/// ring buffer of fixed capacity inside the block's work memory (Context::dwork), so that a
/// run allocates nothing and a saved simulation state holds it. The class holds only sizes;
/// every method takes the block's work memory.
///
/// Work memory layout (WorkSize values): [head, count, t (capacity), u (capacity x width)],
/// head and count as whole numbers; sample j (0 the oldest) is at ring slot (head + j) mod
/// capacity, its time at t[slot] and its values at u[slot * width ...].
///
/// Reading the history at a time q between samples interpolates with a quintic through six
/// neighbouring samples (Lagrange's, on the samples' own, uneven times), chosen the way
/// essentially non-oscillatory (ENO) schemes choose them (Harten et al. 1987): starting from
/// the two samples around q, the stencil grows four times by the neighbour on the side whose
/// divided difference is smaller. On a smooth input its error is O(h^6) in the steps h
/// between samples (about (w h)^6 / 200 for a sine of w rad/s); where the input jumped
/// between two samples, the stencils of the neighbouring intervals stay on their own side of
/// the jump, so the delayed signal does not ring, and within the interval of the jump itself
/// it rises from one level to the other. Where features are narrower than the stencil (a
/// pulse of fewer than six samples) no stencil avoids a jump: the read is then bounded by the
/// interval's two samples, widened by the bulge a smooth input can have between them
/// (|u''| h^2 / 4, u'' from the smallest second divided difference around the interval).
/// Where one side of the history ends, the stencil grows to the other only while the samples
/// it adds lie within how much the stencil's values vary.
class DelayHistory {
 public:
  /// @param capacity samples the ring holds, >= 2
  /// @param width values per sample
  DelayHistory(int capacity, int width) : capacity_(capacity), width_(width) {}

  /// Work memory values needed (checked by the block against its limit).
  static std::int64_t WorkSize(std::int64_t capacity, std::int64_t width) {
    return 2 + capacity * (1 + width);
  }

  int capacity() const { return capacity_; }
  int width() const { return width_; }

  /// Empties the history.
  void Clear(double* dw) const;

  int count(const double* dw) const { return static_cast<int>(dw[1]); }
  /// Time of sample j (0 the oldest). @pre 0 <= j < count
  double time(const double* dw, int j) const { return dw[2 + Slot(dw, j)]; }
  /// Values of sample j. @pre 0 <= j < count
  const double* values(const double* dw, int j) const {
    return dw + 2 + capacity_ + static_cast<std::int64_t>(Slot(dw, j)) * width_;
  }

  /// Adds the sample (t, u) as the newest: element i of u is u[i * u_stride] (a stride of 0
  /// repeats a scalar). A sample at or before the newest one replaces those from t on (a
  /// second major step at the same time brings the value after an event). When the ring is
  /// full the oldest sample makes room, but only if no read at a time q >= keep_from can
  /// need it, that is when the sample after it is at or before keep_from.
  /// @return false, and nothing changed, when the oldest sample is still needed.
  bool Append(double* dw, double t, const double* u, int u_stride, double keep_from) const;

  /// Writes the history at time q into y (width values): the newest sample's values at it,
  /// extrapolated along the line through the last two samples past it; the oldest sample's
  /// values at or before it; the ENO quintic in between.
  /// @pre count(dw) >= 1
  void Read(const double* dw, double q, double* y) const;

  /// Element i of the history at time q, as Read gives it.
  /// @pre count(dw) >= 1, 0 <= i < width
  double ReadElement(const double* dw, double q, int i) const;

 private:
  int Slot(const double* dw, int j) const {
    const int s = static_cast<int>(dw[0]) + j;
    return s >= capacity_ ? s - capacity_ : s;
  }
  /// The sample j with time(j) <= q < time(j + 1). @pre time(0) < q < time(count - 1)
  int Locate(const double* dw, double q) const;
  /// Element i of the ENO quintic over the samples around interval [j, j + 1], at q.
  double Interpolate(const double* dw, int j, double q, int i) const;
  /// Element i at q, with the interval of q already found (-1: before the oldest sample,
  /// count - 1: at or after the newest).
  double ReadLocated(const double* dw, int j, double q, int i) const;
  /// -1 when q is at or before the oldest sample, count - 1 when at or after the newest,
  /// else Locate's j.
  int Bracket(const double* dw, double q) const;

  int capacity_;
  int width_;
};

}  // namespace twinblocks::blocks::internal

namespace twinblocks::blocks::internal {

/// The buffer_size parameter of the transport delays: a whole number of samples, at least 6
/// (the quintic's stencil). @throws BlockError otherwise.
int DelayBufferSize(double value);

/// The message that ends a run whose delay history is full: how much time its samples span
/// against the `needed` seconds of input (the delay, or the largest, given by parameter
/// `param`), and the buffer_size that would do at the steps the solver takes.
std::string FullHistoryMessage(const DelayHistory& history, const double* dw, double needed,
                               const char* param);

}  // namespace twinblocks::blocks::internal
