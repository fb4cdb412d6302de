#pragma once

// The geometry of a tendon transmission, independent of how it is driven: a cable over n
// joints of a tree, pulling joint j with moment arm r_j (tension f gives joint j the torque
// r_j f). With arms that depend only on their own joint's angle, r_j(q_j) (a pulley, or a
// linkage like the RightHand Reflex's distal one), the tendon has a length
//   l(q) = sum_j integral_{q_rest_j}^{q_j} r_j(theta) d theta,
// whose gradient is the row R(q) = [r_1(q_1) ... r_n(q_n)] of Rocchi & Hauser (2016), "A
// Generic Simulator for Underactuated Compliant Hands", eq. 2: the constraint l(q) = s is
// holonomic, and with constant arms it is their s = R (q - q_rest).

#include <array>

namespace twinblocks::multibody {

/// The integral of a smooth function over [a, b] (b < a gives the negative), by 8-point
/// Gauss-Legendre on panels no wider than `panel` (the moment arms of tendon routings change
/// on the scale of a radian: 0.25 rad panels integrate them to round-off).
template <class F>
double GaussLegendreIntegral(F&& f, double a, double b, double panel = 0.25) {
  // Nodes and weights on [-1, 1] (Abramowitz & Stegun, Table 25.4).
  static constexpr std::array<double, 4> kNode = {0.1834346424956498, 0.5255324099163290,
                                                  0.7966664774136267, 0.9602898564975363};
  static constexpr std::array<double, 4> kWeight = {0.3626837833783620, 0.3137066458778873,
                                                    0.2223810344533745, 0.1012285362903763};
  const double span = b - a;
  if (span == 0.0) return 0.0;
  int panels = static_cast<int>((span < 0.0 ? -span : span) / panel) + 1;
  if (panels > 10000) panels = 10000;  // an angle of thousands of radians: still bounded
  const double h = span / panels;
  double sum = 0.0;
  for (int k = 0; k < panels; ++k) {
    const double mid = a + (k + 0.5) * h;
    double panel_sum = 0.0;
    for (int i = 0; i < 4; ++i) {
      const double d = 0.5 * h * kNode[i];
      panel_sum += kWeight[i] * (f(mid - d) + f(mid + d));
    }
    sum += 0.5 * h * panel_sum;
  }
  return sum;
}

/// d f / d x at x by fourth-order central differences of step h: error h^4 f^(5) / 30 and
/// round-off about 1e-16 |f| / h, both near 1e-12 for a moment arm at h = 1e-3 rad.
template <class F>
double CentralDerivative(F&& f, double x, double h = 1e-3) {
  return (8.0 * (f(x + h) - f(x - h)) - (f(x + 2.0 * h) - f(x - 2.0 * h))) / (12.0 * h);
}

}  // namespace twinblocks::multibody
