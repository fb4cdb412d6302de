#pragma once

// What the variable-step solvers with their own step control (ode23, ode45, ode23s) share:
// the error norm, and how a step is fitted to the caller's stop and what it leaves for the next.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace twinblocks::solvers::internal {

/// sqrt(mean((e_i / (atol_i + rtol max(|x_i|, |x_new_i|)))^2)): a step is accepted when <= 1.
inline double WeightedRmsNorm(const Eigen::VectorXd& e, const Eigen::VectorXd& x,
                              const Eigen::VectorXd& x_new, const Eigen::VectorXd& atol,
                              double rtol) {
  const Eigen::Index n = e.size();
  if (n == 0) return 0.0;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sk = atol[i] + rtol * std::max(std::abs(x[i]), std::abs(x_new[i]));
    const double r = e[i] / sk;
    sum += r * r;
  }
  return std::sqrt(sum / static_cast<double>(n));
}

/// The index of the largest |e_i| / (atol_i + rtol max(|x_i|, |x_new_i|)): the state that
/// fails the error test most (-1 for none), for the message of a step-size underflow.
inline int LargestWeightedError(const Eigen::VectorXd& e, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& x_new, const Eigen::VectorXd& atol,
                                double rtol) {
  int worst = -1;
  double largest = -1.0;
  for (Eigen::Index i = 0; i < e.size(); ++i) {
    const double r =
        std::abs(e[i]) / (atol[i] + rtol * std::max(std::abs(x[i]), std::abs(x_new[i])));
    // A NaN estimate is the worst of all.
    if (std::isnan(r) || r > largest) {
      worst = static_cast<int>(i);
      if (std::isnan(r)) break;
      largest = r;
    }
  }
  return worst;
}

/// One attempt of a step of size h from t toward t_stop. A step within 10% of t_stop (and no
/// longer than h_max) is stretched onto it rather than leaving a sliver; one that would pass it
/// is cut to land on it.
struct TrialStep {
  static constexpr double kStretch = 1.1;

  TrialStep(double t, double t_stop, double h_try, double h_max) : h(h_try), h_uncut(h_try) {
    const double remaining = t_stop - t;
    if (h >= remaining || (kStretch * h >= remaining && remaining <= h_max)) {
      h = remaining;
      lands = true;
    }
    t_end = lands ? t_stop : t + h;
  }

  /// After the step is accepted with a proposed next size h_new: the next size, which a cut
  /// made only to land on t_stop does not shorten (it says nothing against the longer step),
  /// and the size to keep as the last one (the guess after a restart).
  void Accepted(double h_new, bool rejected, double h_max, double* h_next, double* h_last) const {
    if (lands && !rejected && h_uncut > h) h_new = std::max(h_new, std::min(h_uncut, h_max));
    *h_last = lands && !rejected ? std::max(h, std::min(h_uncut, h_max)) : h;
    *h_next = std::min(h_new, h_max);
  }

  double h;            ///< s, the step taken
  double h_uncut;      ///< s, before any cut or stretch to land
  double t_end;        ///< where it ends (exactly t_stop when it lands)
  bool lands = false;  ///< it ends on t_stop
};

}  // namespace twinblocks::solvers::internal
